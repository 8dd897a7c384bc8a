-- onboarding-kit: the host's seal of each audit entry (docs/decisions.md, "The trail a database role
-- cannot forge, cut or rewrite unseen"; docs/data-protection.md, "Sealed entries").
--
-- A seal is an HMAC-SHA256 of the entry's chain hash under a key of the host's that this database
-- never sees: the kit computes it after the INSERT that chained the entry (RETURNING hash) and writes
-- it here in the same transaction. A row INSERTed into audit_entries by anyone else has no seal, or a
-- made-up one, and core's verification names it (UNSEALED, SEAL_INVALID). Append-only like the trail:
-- a seal is written once with its entry and never changed; redaction leaves it (the hash it seals stays).

CREATE TABLE audit_seals (
  -- No foreign key: TRUNCATE of the trail stays refused by its trigger (42501), not by the key.
  entry_id uuid PRIMARY KEY,
  key_id text NOT NULL,
  seal text NOT NULL
);

CREATE FUNCTION audit_seals_refuse_change() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION 'audit seals are append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_seals_append_only BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION audit_seals_refuse_change();
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seals_refuse_change();
