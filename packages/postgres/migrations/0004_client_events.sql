-- The transactional outbox of client events (issue 9): appended in the command's transaction,
-- read by a manager oldest first. Positions follow commit order per manager: an append takes a
-- transaction-level advisory lock on its manager before drawing positions.
CREATE TABLE client_events (
  position bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  manager_id text NOT NULL,
  client_id uuid NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL,
  -- json, not jsonb: an event reads back exactly as it was written.
  body json NOT NULL
);
CREATE INDEX client_events_by_manager ON client_events (manager_id, position);
