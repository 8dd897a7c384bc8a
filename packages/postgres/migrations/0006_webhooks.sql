-- Webhook endpoints of managers and the deliveries of their events (issue 9). The delivery queue
-- itself is pg-boss, in its own schema (`<schema>_jobs`), installed by `migrate` after this file.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  manager_id text NOT NULL,
  url text NOT NULL,
  description text,
  -- NULL: every event type, including types a later version adds.
  event_types text[],
  created_at timestamptz NOT NULL,
  -- [{ "secret": "whsec_…", "expiresAt": ISO | null }], newest first.
  secrets jsonb NOT NULL
);
CREATE INDEX webhook_endpoints_by_manager ON webhook_endpoints (manager_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  manager_id text NOT NULL,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL CHECK (attempts >= 0),
  created_at timestamptz NOT NULL,
  retry_until timestamptz NOT NULL,
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
