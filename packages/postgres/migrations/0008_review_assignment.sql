-- onboarding-kit: the review queue and its assignment (the review console's kit features).
-- The reviewer a client is assigned to (a compliance id) and since when: both set or both NULL.
-- Every existing client is unassigned.

ALTER TABLE clients
  ADD COLUMN assignee_id text,
  ADD COLUMN assigned_at timestamptz,
  ADD CONSTRAINT clients_assignment_whole CHECK ((assignee_id IS NULL) = (assigned_at IS NULL));

-- The queue reads the clients of one waiting status oldest first, from a cursor. Partial indexes
-- hold only the waiting clients, so their size follows the queue, not the whole client base:
-- the queue, by client type, the unassigned clients (what "next unassigned" locks the first of), and
-- a reviewer's own. Without the one by type, PostgreSQL read a filter on the type from
-- clients_by_manager_status_type, an index of every client.
CREATE INDEX clients_review_queue ON clients (status, created_at, id)
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_by_type ON clients (status, client_type, created_at, id)
  WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_unassigned ON clients (status, created_at, id)
  WHERE assignee_id IS NULL
    AND status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
CREATE INDEX clients_review_queue_by_assignee ON clients (assignee_id, status, created_at, id)
  WHERE assignee_id IS NOT NULL
    AND status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');

-- Assigning and releasing are audited changes. The list keeps every action of the other migrations
-- (0009's `screening-result` too: a database that had 0009 before this file gets it after).
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'create', 'resubmit', 'approve', 'request-resubmission', 'terms-signed', 'delete', 'redact',
  'screening-resolution', 'screening-result', 'download-links-issued', 'assign', 'release'
));
