-- onboarding-kit: the audit chain covers an entry's documents through a salted digest, so that
-- redaction may replace the file names in them (docs/decisions.md, "File names after erasure").
--
-- A document key is `<uuid>_<filename>`, and a file name is personal data ("passport_jane_doe.pdf").
-- Until now each entry's hash covered its `documents` as written (migration 0007): redaction could
-- not touch them without breaking the chain. An entry chained from now on (version 2) carries
-- `documents_digest` = SHA-256(salt + "\n" + documents JSON), with the salt of its changes digest,
-- and its hash covers the documents as redaction leaves them (`document_key_redacted`: the ids,
-- which stay) and that digest in their place:
--   [previousHash, sequence, id, clientId, action, actorKind, actorId, requestId, at,
--    redactedDocuments, documentsDigest, changesDigest]
-- Entries chained before (documents_digest NULL, version 1) keep their hash over the documents as
-- written, and their documents: the rule is keyed on the stored form, and an entry's stored form
-- cannot be changed by the role the kit serves as (its grants and the trigger below). Core's
-- audit-chain.ts builds the same texts: keep both the same.

ALTER TABLE audit_entries ADD COLUMN documents_digest text;

-- A document key without its file name: `<uuid>_[redacted]` (a key with no `_`: `[redacted]`).
-- Core's redactedDocumentKey is the same rule.
CREATE FUNCTION document_key_redacted(key text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
  SELECT CASE WHEN strpos(key, '_') = 0 THEN '[redacted]' ELSE split_part(key, '_', 1) || '_[redacted]' END
$$;

CREATE FUNCTION audit_documents_redacted(documents text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
  SELECT coalesce(array_agg(document_key_redacted(d.key) ORDER BY d.ordinality), '{}'::text[])
  FROM unnest(documents) WITH ORDINALITY AS d(key, ordinality)
$$;

CREATE FUNCTION audit_documents_digest(salt text, documents text[]) RETURNS text
LANGUAGE sql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
  SELECT encode(sha256(convert_to(salt || E'\n' || array_to_json(documents)::text, 'UTF8')), 'hex')
$$;

-- Version 1 (documents_digest NULL) as migration 0007 wrote it; version 2 as above.
CREATE OR REPLACE FUNCTION audit_entry_hash(entry audit_entries) RETURNS text
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
    || ',' || CASE WHEN entry.documents_digest IS NULL THEN array_to_json(entry.documents)::text
         ELSE array_to_json(audit_documents_redacted(entry.documents))::text
           || ',' || to_json(entry.documents_digest)::text END
    || ',' || to_json(entry.changes_digest)::text
    || ']', 'UTF8')), 'hex')
$$;

-- Every entry appended from now on is version 2, whatever the INSERT said of the chain's columns.
CREATE OR REPLACE FUNCTION audit_entries_chain() RETURNS trigger
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
  NEW.documents_digest := audit_documents_digest(NEW.changes_salt, NEW.documents);
  NEW.hash := audit_entry_hash(NEW);
  RETURN NEW;
END
$$;

-- Redaction's UPDATE, narrowed as before (migration 0007) and now also to the documents: those of
-- a version 2 entry may become exactly audit_documents_redacted of what they were, those of a
-- version 1 entry stay; documents_digest, like every chain column, stays.
CREATE OR REPLACE FUNCTION audit_entries_refuse_change() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND current_setting('onboarding_kit.redacting', true) = 'on'
    AND (NEW.position, NEW.id, NEW.client_id, NEW.action, NEW.actor_kind, NEW.actor_id, NEW.request_id,
         NEW.at, NEW.sequence, NEW.previous_hash, NEW.changes_digest, NEW.documents_digest, NEW.hash)
      IS NOT DISTINCT FROM
        (OLD.position, OLD.id, OLD.client_id, OLD.action, OLD.actor_kind, OLD.actor_id, OLD.request_id,
         OLD.at, OLD.sequence, OLD.previous_hash, OLD.changes_digest, OLD.documents_digest, OLD.hash)
    AND NEW.documents IS NOT DISTINCT FROM (
      CASE WHEN OLD.documents_digest IS NULL THEN OLD.documents ELSE audit_documents_redacted(OLD.documents) END)
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
      HINT = 'Only redaction (SET LOCAL onboarding_kit.redacting = ''on'') of a redacted client may replace its change values and file names by "[redacted]".';
END
$$;
