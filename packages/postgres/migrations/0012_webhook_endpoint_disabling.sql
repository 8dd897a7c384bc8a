-- onboarding-kit: failing webhook endpoints are disabled (Standard Webhooks; docs/events.md).
-- failing_since: the first failed attempt after the last success (NULL: not failing). An endpoint is
-- disabled (disabled_at set) when it answers 410 Gone, or when it has failed every attempt for the
-- kit's threshold (5 days); it then gets no new deliveries until its manager enables it again.

ALTER TABLE webhook_endpoints
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN disabled_at timestamptz,
  ADD COLUMN disabled_reason text CHECK (disabled_reason IN ('gone', 'failing')),
  ADD CONSTRAINT webhook_endpoints_disabled_with_reason
    CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL));
