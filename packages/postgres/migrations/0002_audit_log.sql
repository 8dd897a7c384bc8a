-- onboarding-kit: the audit trail (decisions §10).
-- One row per change of a client and per client whose documents got download links, written in the
-- transaction of the change. No foreign key to `clients`: the trail outlives what it describes.

CREATE TABLE audit_entries (
  -- The order of the trail: for one client, the order of its changes (each locks the client), also
  -- for changes within one millisecond, where `at` cannot tell.
  position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  client_id uuid NOT NULL,
  action text NOT NULL CHECK (action IN (
    'create', 'resubmit', 'approve', 'request-resubmission', 'terms-signed', 'delete',
    'download-links-issued'
  )),
  actor_kind text NOT NULL CHECK (actor_kind IN ('manager', 'client', 'compliance', 'system')),
  actor_id text NOT NULL,
  request_id text,
  at timestamptz NOT NULL,
  -- json, not jsonb: the changes read back exactly as they were written.
  changes json NOT NULL,
  documents text[] NOT NULL
);

-- A client's trail, oldest first: each page reads this index in order, from its cursor (a position).
CREATE INDEX audit_entries_by_client ON audit_entries (client_id, position);

-- Append-only. UPDATE, DELETE and TRUNCATE are refused, whoever sends them. The one exception is
-- redaction: a transaction that ran `SET LOCAL onboarding_kit.redacting = 'on'` may rewrite the
-- `changes` of an entry (to replace personal data by "[redacted]"), and nothing else of it.
-- (A superuser can still get around a trigger: `session_replication_role = replica`, or dropping it.)
CREATE FUNCTION audit_entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND current_setting('onboarding_kit.redacting', true) = 'on'
    AND (NEW.position, NEW.id, NEW.client_id, NEW.action, NEW.actor_kind, NEW.actor_id, NEW.request_id, NEW.at, NEW.documents)
      IS NOT DISTINCT FROM
        (OLD.position, OLD.id, OLD.client_id, OLD.action, OLD.actor_kind, OLD.actor_id, OLD.request_id, OLD.at, OLD.documents)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
      HINT = 'Only redaction (SET LOCAL onboarding_kit.redacting = ''on'') may rewrite an entry''s changes.';
END
$$;

CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_refuse_change();
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_refuse_change();
