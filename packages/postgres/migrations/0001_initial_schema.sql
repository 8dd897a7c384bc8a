-- onboarding-kit: initial schema.
-- `migrate()` runs this file in one transaction with search_path set to the kit's schema, so the
-- names below are unqualified. Enumerations are CHECK constraints (no enum types) so that adding
-- a value later is a plain constraint swap. The job engine (pg-boss, the webhook delivery queue)
-- lives in a schema of its own, `<schema>_jobs`, installed by `migrate` after the files.

CREATE TABLE clients (
  id uuid PRIMARY KEY,
  manager_id text NOT NULL,
  client_type text NOT NULL CHECK (client_type IN ('INDIVIDUAL', 'ENTITY')),
  status text NOT NULL CHECK (status IN (
    'ONBOARDING_IN_PROGRESS', 'ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED',
    'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED', 'DELETED'
  )),
  -- Onboarding sub-objects with no relational use of their own are kept whole as jsonb.
  company jsonb CHECK (jsonb_typeof(company) = 'object'),
  company_directors_and_ubos jsonb CHECK (jsonb_typeof(company_directors_and_ubos) = 'object'),
  individual_profile jsonb CHECK (jsonb_typeof(individual_profile) = 'object'),
  individual_source_of_funds jsonb CHECK (jsonb_typeof(individual_source_of_funds) = 'object'),
  onboarding_resubmission_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  CONSTRAINT clients_company_only_for_entities CHECK (client_type = 'ENTITY' OR company IS NULL),
  CONSTRAINT clients_profile_only_for_individuals CHECK (client_type = 'INDIVIDUAL' OR individual_profile IS NULL)
);

-- A manager's clients, newest first with ties by id descending, optionally filtered: each listing
-- reads one of these indexes in order and never sorts.
CREATE INDEX clients_by_manager ON clients (manager_id, created_at DESC, id DESC);
CREATE INDEX clients_by_manager_status ON clients (manager_id, status, created_at DESC, id DESC);
CREATE INDEX clients_by_manager_type ON clients (manager_id, client_type, created_at DESC, id DESC);
-- Filtered by both (GET /clients?status=&clientType=): with only the one-filter indexes PostgreSQL
-- combined two of them in a bitmap and sorted the rows (docs/performance.md).
CREATE INDEX clients_by_manager_status_type
  ON clients (manager_id, status, client_type, created_at DESC, id DESC);

CREATE TABLE company_representatives (
  id uuid PRIMARY KEY,
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  position integer NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  job_title text,
  supporting_documents jsonb NOT NULL CHECK (jsonb_typeof(supporting_documents) = 'array'),
  role text NOT NULL CHECK (role IN ('AUTHORIZED_SIGNATORY', 'OPERATOR')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  UNIQUE (client_id, position)
);

CREATE TABLE bank_accounts (
  id uuid PRIMARY KEY,
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  position integer NOT NULL,
  label text,
  fiat_currency text NOT NULL,
  country_code text NOT NULL,
  type text NOT NULL CHECK (type IN ('PERSONAL', 'THIRD_PARTY')),
  identifiers jsonb NOT NULL CHECK (identifiers ->> 'format' IN (
    'IBAN', 'SWIFT', 'SWIFT_MX', 'ROUTING_NUMBER', 'SORT_CODE', 'IN_INR', 'AU'
  )),
  third_party_owner_name text,
  third_party_owner_address text,
  third_party_owner_city text,
  third_party_owner_postal_code text,
  third_party_owner_country_code text,
  third_party_owner_documents jsonb CHECK (jsonb_typeof(third_party_owner_documents) = 'array'),
  created_at timestamptz NOT NULL,
  UNIQUE (client_id, position)
);

CREATE TABLE blockchain_wallets (
  id uuid PRIMARY KEY,
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  position integer NOT NULL,
  label text,
  blockchain_network text NOT NULL,
  address text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (client_id, position)
);

CREATE TABLE client_status_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  from_status text CHECK (from_status IN (
    'ONBOARDING_IN_PROGRESS', 'ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED',
    'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED', 'DELETED'
  )),
  to_status text NOT NULL CHECK (to_status IN (
    'ONBOARDING_IN_PROGRESS', 'ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED',
    'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED', 'DELETED'
  )),
  reason text,
  actor text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX client_status_history_by_client ON client_status_history (client_id, id);

-- The guard of every download: which client (and so which manager) owns a document key.
-- Its foreign key is checked at commit, so a command may index documents before it inserts the client.
CREATE TABLE documents (
  key text PRIMARY KEY,
  client_id uuid NOT NULL REFERENCES clients (id) DEFERRABLE INITIALLY DEFERRED,
  manager_id text NOT NULL,
  filename text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  stored_at timestamptz NOT NULL
);
CREATE INDEX documents_by_client ON documents (client_id);

CREATE TABLE preset_fees (
  id uuid PRIMARY KEY,
  manager_id text NOT NULL,
  fee_direction text NOT NULL CHECK (fee_direction IN ('ONRAMP', 'OFFRAMP')),
  fiat_fee_group text NOT NULL,
  blockchain_fee_group text NOT NULL,
  configuration jsonb NOT NULL CHECK (configuration ->> 'type' IN ('FLAT', 'MONTHLY_VOLUME')),
  created_at timestamptz NOT NULL
);
-- Covering: a manager's whole list (no LIMIT, ~1,000 rows) is read from the index alone, in order,
-- so the planner has no reason to prefer a bitmap scan plus a sort when a manager's fees are spread
-- over the table.
CREATE INDEX preset_fees_by_manager ON preset_fees (manager_id, created_at DESC, id DESC)
  INCLUDE (fee_direction, fiat_fee_group, blockchain_fee_group, configuration);

-- Decisions §5. `token` fences a claim: only its holder may complete or release it. `owner` (a
-- principal key) is who claimed it, for the per-owner quota (idempotencyMaxRecordsPerOwner).
-- `outcome` is core's RecordedOutcome, opaque: a kit command's outcome in domain terms, or a host
-- route's answer; json, not jsonb, so a replay sends it back exactly as recorded (key order included).
CREATE TABLE idempotency_records (
  scope text NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  token text NOT NULL,
  state text NOT NULL CHECK (state IN ('IN_PROGRESS', 'COMPLETED')),
  created_at timestamptz NOT NULL,
  locked_at timestamptz NOT NULL,
  completed_at timestamptz,
  owner text NOT NULL,
  outcome json,
  CONSTRAINT idempotency_records_scope_key UNIQUE (scope, idempotency_key),
  CONSTRAINT idempotency_records_completed_has_outcome
    CHECK ((state = 'COMPLETED') = (outcome IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX idempotency_records_by_creation ON idempotency_records (created_at);
CREATE INDEX idempotency_records_by_owner ON idempotency_records (owner, created_at);

CREATE TABLE api_keys (
  key_hash text PRIMARY KEY CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  principal_kind text NOT NULL CHECK (principal_kind IN ('manager', 'client', 'compliance')),
  manager_id text,
  client_id text,
  compliance_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT api_keys_principal_shape CHECK (
    (principal_kind = 'manager' AND manager_id IS NOT NULL AND client_id IS NULL AND compliance_id IS NULL)
    OR (principal_kind = 'client' AND manager_id IS NOT NULL AND client_id IS NOT NULL AND compliance_id IS NULL)
    OR (principal_kind = 'compliance' AND compliance_id IS NOT NULL AND manager_id IS NULL AND client_id IS NULL)
  )
);

-- The transactional outbox of client events, appended in the command's transaction. Each event
-- records the id of the transaction that wrote it, and a reader returns only events of
-- transactions older than its snapshot's xmin (every one of them has finished), ordered by
-- (transaction, position): a transaction still running holds back only what comes after it;
-- nothing is ever skipped.
CREATE TABLE client_events (
  position bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  manager_id text NOT NULL,
  client_id uuid NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL,
  -- json, not jsonb: an event reads back exactly as it was written.
  body json NOT NULL,
  xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)
);
CREATE INDEX client_events_by_manager_xid ON client_events (manager_id, xid, position);

-- Webhook endpoints of managers and the deliveries of their events.
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

-- How many idempotency records each owner has stored, kept by triggers, so that a claim checks the
-- per-owner quota (OnboardingKitOptions.idempotencyMaxRecordsPerOwner) without counting the owner's
-- live records one by one. Stored records include those past their TTL and not yet purged, so the
-- sum is never below the live count: a claim whose owner is below the quota by the sum needs no
-- count; at or above it, the claim counts the live records as before. A stale sum can only be too
-- high (the exact count then decides), never too low: every change to idempotency_records updates
-- it in the same transaction.
--
-- An insert adds 1 to one of eight rows of its owner, picked at random, so concurrent claims of one
-- busy owner rarely wait on the same row; removals subtract from row 0 (which may go negative: only
-- the sum means something).
CREATE TABLE idempotency_owner_records (
  owner text NOT NULL,
  shard smallint NOT NULL,
  records bigint NOT NULL,
  PRIMARY KEY (owner, shard)
);

-- The functions run with the search_path of this migration (the kit's schema), whatever the
-- session's is.
CREATE FUNCTION idempotency_owner_records_inserted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  VALUES (NEW.owner, floor(random() * 8)::smallint, 1)
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + 1;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_deleted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- In owner order: two purges running at once take the rows of the owners they share in the same
  -- order, so neither waits for a row the other holds while holding one it wants (a deadlock).
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  SELECT owner, 0, -count(*) FROM removed GROUP BY owner ORDER BY owner
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + excluded.records;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_moved() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  SELECT owner, 0, change FROM (VALUES (OLD.owner, -1), (NEW.owner, 1)) AS moved(owner, change)
  ORDER BY owner
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + excluded.records;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_truncated() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM idempotency_owner_records;
  RETURN NULL;
END
$$;

-- A claim's INSERT … ON CONFLICT DO UPDATE fires the insert trigger only for a row it inserted.
CREATE TRIGGER idempotency_owner_records_on_insert AFTER INSERT ON idempotency_records
  FOR EACH ROW EXECUTE FUNCTION idempotency_owner_records_inserted();
-- Releases and purges: one statement-level update per statement, whatever it deleted.
CREATE TRIGGER idempotency_owner_records_on_delete AFTER DELETE ON idempotency_records
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION idempotency_owner_records_deleted();
CREATE TRIGGER idempotency_owner_records_on_move AFTER UPDATE OF owner ON idempotency_records
  FOR EACH ROW WHEN (OLD.owner IS DISTINCT FROM NEW.owner)
  EXECUTE FUNCTION idempotency_owner_records_moved();
CREATE TRIGGER idempotency_owner_records_on_truncate AFTER TRUNCATE ON idempotency_records
  FOR EACH STATEMENT EXECUTE FUNCTION idempotency_owner_records_truncated();
