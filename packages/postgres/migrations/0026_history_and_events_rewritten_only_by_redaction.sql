-- onboarding-kit: a client's status history and its events are rewritten by redaction alone
-- (docs/data-protection.md, "What the role the kit serves as can do").
--
-- grantServingRole lets the serving role UPDATE one column of each: a history row's `reason` and an
-- event's `body`, which redaction rewrites. Column grants cannot say when, so until now that role
-- could rewrite the reason of any decision, or the body of any event, of a live client. These
-- triggers narrow the UPDATE to what redaction writes:
-- - a history row's reason may become "[redacted]" (the kit's REDACTED_VALUE), of a client that is
--   DELETED (redaction's own statement marks the client redacted in the same statement, which a
--   trigger does not see; DELETED is committed before);
-- - an event's body may change within its `data` only (its id, type and time stay), of a client
--   already marked redacted (redaction rewrites the events after marking the client).
-- Nothing else changes a row of either table: every other column, and DELETE and TRUNCATE, are
-- refused to that role by its grants. The tables' owner can still switch a trigger off.

CREATE FUNCTION client_status_history_refuse_rewrite() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.reason IS NOT DISTINCT FROM OLD.reason THEN
    RETURN NEW;
  END IF;
  IF NEW.reason = '[redacted]'
    AND EXISTS (SELECT 1 FROM clients WHERE id = OLD.client_id AND status = 'DELETED')
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'a status history reason is rewritten only by redaction of a deleted client'
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER client_status_history_redaction_only BEFORE UPDATE ON client_status_history
  FOR EACH ROW EXECUTE FUNCTION client_status_history_refuse_rewrite();

CREATE FUNCTION client_events_refuse_rewrite() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.body::jsonb = OLD.body::jsonb THEN
    RETURN NEW;
  END IF;
  IF (NEW.body::jsonb - 'data') = (OLD.body::jsonb - 'data')
    AND EXISTS (SELECT 1 FROM clients WHERE id = OLD.client_id AND redacted_at IS NOT NULL)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'an event body is rewritten only by redaction of a redacted client'
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER client_events_redaction_only BEFORE UPDATE ON client_events
  FOR EACH ROW EXECUTE FUNCTION client_events_refuse_rewrite();
