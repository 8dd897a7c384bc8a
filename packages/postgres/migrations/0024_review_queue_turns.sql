-- onboarding-kit: the review queue takes managers in turn (ClientRepository's ReviewQueuePosition).
-- A client coming to wait in a waiting status takes a turn there: the turn of the queue's head (the
-- lowest one waiting in the status, 0 when none waits) or one past the last turn its manager holds
-- there, whichever is later; the queue reads by (turn, created_at, id). So one manager's burst of
-- clients takes one place per turn beside every other manager's, not all the places in front of
-- them. A turn is kept while the client waits (a cursor's place never moves) and means nothing
-- after it; the column is 0 on every other client.

ALTER TABLE clients ADD COLUMN review_turn integer NOT NULL DEFAULT 0;

-- The clients already waiting: each manager's k-th in its status (oldest first) takes turn k - 1.
UPDATE clients c SET review_turn = ranked.turn
FROM (
  SELECT id, (row_number() OVER (PARTITION BY status, manager_id ORDER BY created_at, id) - 1)::int AS turn
  FROM clients
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE')
) ranked
WHERE c.id = ranked.id;

-- 0008's partial indexes, in the new order (each holds only the waiting clients, a small share of
-- the client base), and one more that finds a manager's last turn in a status at a create.
DROP INDEX clients_review_queue;
DROP INDEX clients_review_queue_by_type;
DROP INDEX clients_review_queue_unassigned;
DROP INDEX clients_review_queue_by_assignee;
CREATE INDEX clients_review_queue ON clients (status, review_turn, created_at, id)
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_by_type ON clients (status, client_type, review_turn, created_at, id)
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_unassigned ON clients (status, review_turn, created_at, id)
  WHERE assignee_id IS NULL
    AND status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_by_assignee ON clients (assignee_id, status, review_turn, created_at, id)
  WHERE assignee_id IS NOT NULL
    AND status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_turns_by_manager ON clients (manager_id, status, review_turn)
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
