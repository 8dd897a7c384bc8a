-- onboarding-kit: one send per attempt of a webhook delivery, across processes.
-- A worker claims a delivery's next attempt before sending it, until the attempt is recorded (the
-- update that adds the attempt clears the claim) or the claim runs out (its worker died). A worker
-- still holding a job that the job engine has meanwhile handed to another (after the job's expiry)
-- then finds the attempt claimed or recorded, and does not send it again. NULL: not claimed.

ALTER TABLE webhook_deliveries ADD COLUMN attempt_claimed_until timestamptz;
