-- onboarding-kit: a hash chain over each client's audit trail, and redaction narrowed to what it does
-- (docs/decisions.md, "The audit chain").
--
-- Each entry carries its place in its client's chain (`sequence`, 1, 2, 3 …), the hash of the entry
-- before it, a salted digest of its `changes` and its own hash, computed here by a trigger on every
-- INSERT whoever sends it: a row rewritten later, removed or slipped in no longer matches, and core's
-- verification (GET /compliance/v1/clients/{id}/audit/verification) names the first link that breaks.
-- The hashed text is the one core's audit-chain.ts builds: keep both the same.

ALTER TABLE audit_entries
  ADD COLUMN sequence integer,
  ADD COLUMN previous_hash text,
  -- Redaction erases the salt with the values: the digest it leaves cannot be matched against guesses.
  ADD COLUMN changes_salt text,
  ADD COLUMN changes_digest text,
  ADD COLUMN hash text;

CREATE FUNCTION audit_changes_digest(salt text, changes json) RETURNS text
LANGUAGE sql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
  SELECT encode(sha256(convert_to(salt || E'\n' || changes::text, 'UTF8')), 'hex')
$$;

-- The JSON array core hashes: [previousHash, sequence, id, clientId, action, actorKind, actorId,
-- requestId, at, documents, changesDigest], written as JSON.stringify writes it (no spaces).
CREATE FUNCTION audit_entry_hash(entry audit_entries) RETURNS text
LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  SELECT encode(sha256(convert_to(
    '[' || coalesce(to_json(entry.previous_hash)::text, 'null')
    || ',' || entry.sequence::text
    || ',' || to_json(entry.id::text)::text
    || ',' || to_json(entry.client_id::text)::text
    || ',' || to_json(entry.action)::text
    || ',' || to_json(entry.actor_kind)::text
    || ',' || to_json(entry.actor_id)::text
    || ',' || coalesce(to_json(entry.request_id)::text, 'null')
    || ',' || to_json(to_char(entry.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
    || ',' || array_to_json(entry.documents)::text
    || ',' || to_json(entry.changes_digest)::text
    || ']', 'UTF8')), 'hex')
$$;

-- What redaction makes of `changes`: every value that is not null becomes "[redacted]".
CREATE FUNCTION audit_changes_redacted(changes json) RETURNS json
LANGUAGE sql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
  SELECT coalesce(json_agg(json_build_object(
      'path', c.value -> 'path',
      'before', CASE WHEN json_typeof(c.value -> 'before') = 'null' THEN c.value -> 'before' ELSE to_json('[redacted]'::text) END,
      'after', CASE WHEN json_typeof(c.value -> 'after') = 'null' THEN c.value -> 'after' ELSE to_json('[redacted]'::text) END
    ) ORDER BY c.ordinality), '[]'::json)
  FROM json_array_elements(changes) WITH ORDINALITY AS c(value, ordinality)
$$;

-- The existing trails, chained in their order (the append-only trigger is off for this one rewrite).
ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only;
DO $$
DECLARE
  entry audit_entries;
  last_client uuid;
  last_hash text;
  last_sequence integer;
BEGIN
  FOR entry IN SELECT * FROM audit_entries ORDER BY client_id, position LOOP
    IF last_client IS DISTINCT FROM entry.client_id THEN
      last_client := entry.client_id;
      last_hash := NULL;
      last_sequence := 0;
    END IF;
    entry.sequence := last_sequence + 1;
    entry.previous_hash := last_hash;
    entry.changes_salt := gen_random_uuid()::text;
    entry.changes_digest := audit_changes_digest(entry.changes_salt, entry.changes);
    entry.hash := audit_entry_hash(entry);
    UPDATE audit_entries
      SET sequence = entry.sequence, previous_hash = entry.previous_hash, changes_salt = entry.changes_salt,
        changes_digest = entry.changes_digest, hash = entry.hash
      WHERE position = entry.position;
    last_hash := entry.hash;
    last_sequence := entry.sequence;
  END LOOP;
END
$$;
ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only;

ALTER TABLE audit_entries
  ALTER COLUMN sequence SET NOT NULL,
  ALTER COLUMN changes_digest SET NOT NULL,
  ALTER COLUMN hash SET NOT NULL,
  ADD CONSTRAINT audit_entries_sequence_positive CHECK (sequence >= 1);
-- One entry per place of a chain; a client's trail is read in chain order through it.
CREATE UNIQUE INDEX audit_entries_by_client_sequence ON audit_entries (client_id, sequence);
DROP INDEX audit_entries_by_client;

-- Chains every inserted row after its client's last one, whatever the INSERT said of these columns.
-- The advisory lock (held to the end of the transaction) makes appends of one client wait for each
-- other, so two processes never chain to the same entry; the next statement sees the other's row.
CREATE FUNCTION audit_entries_chain() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  previous audit_entries;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('onboarding_kit.audit_chain:' || NEW.client_id::text, 0));
  SELECT * INTO previous FROM audit_entries
    WHERE client_id = NEW.client_id ORDER BY sequence DESC LIMIT 1;
  IF FOUND AND NEW.at < previous.at - interval '5 minutes' THEN
    RAISE EXCEPTION 'audit entry % is dated % , before the client''s last entry (%)', NEW.id, NEW.at, previous.at
      USING ERRCODE = 'check_violation';
  END IF;
  NEW.sequence := coalesce(previous.sequence, 0) + 1;
  NEW.previous_hash := previous.hash;
  NEW.changes_salt := gen_random_uuid()::text;
  NEW.changes_digest := audit_changes_digest(NEW.changes_salt, NEW.changes);
  NEW.hash := audit_entry_hash(NEW);
  RETURN NEW;
END
$$;

CREATE TRIGGER audit_entries_chain BEFORE INSERT ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_chain();

-- Append-only, as before, with a narrower exception: while a transaction says it is redacting, an
-- UPDATE may only replace each value of `changes` by "[redacted]" (exactly what
-- audit_changes_redacted makes of the entry's changes) and erase the salt, of a client that is
-- DELETED and redacted. Anything else of the row, and any other client's entries, stay as they are.
CREATE OR REPLACE FUNCTION audit_entries_refuse_change() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND current_setting('onboarding_kit.redacting', true) = 'on'
    AND (NEW.position, NEW.id, NEW.client_id, NEW.action, NEW.actor_kind, NEW.actor_id, NEW.request_id,
         NEW.at, NEW.documents, NEW.sequence, NEW.previous_hash, NEW.changes_digest, NEW.hash)
      IS NOT DISTINCT FROM
        (OLD.position, OLD.id, OLD.client_id, OLD.action, OLD.actor_kind, OLD.actor_id, OLD.request_id,
         OLD.at, OLD.documents, OLD.sequence, OLD.previous_hash, OLD.changes_digest, OLD.hash)
    AND NEW.changes_salt IS NULL
    AND NEW.changes::jsonb = audit_changes_redacted(OLD.changes)::jsonb
    AND EXISTS (
      SELECT 1 FROM clients
      WHERE id = OLD.client_id AND status = 'DELETED' AND redacted_at IS NOT NULL
    )
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
      HINT = 'Only redaction (SET LOCAL onboarding_kit.redacting = ''on'') of a redacted client may replace its change values by "[redacted]".';
END
$$;
