-- A manager's clients filtered by both a status and a client type (GET /clients?status=&clientType=),
-- newest first: with only the one-filter indexes PostgreSQL combined two of them in a bitmap and
-- sorted the rows (seen on 1,000,000 clients over 1,000 managers, docs/performance.md). This index
-- is read in order, like the others. A plain CREATE INDEX: on a large table, hosts that cannot pause
-- writes while it builds create it beforehand with CREATE INDEX CONCURRENTLY under the same name.
CREATE INDEX IF NOT EXISTS clients_by_manager_status_type
  ON clients (manager_id, status, client_type, created_at DESC, id DESC);
