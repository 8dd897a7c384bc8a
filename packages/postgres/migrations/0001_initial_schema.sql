-- onboarding-kit: initial schema.
-- `migrate()` runs this file in one transaction with search_path set to the kit's schema, so the
-- names below are unqualified. Enumerations are CHECK constraints (no enum types) so that adding
-- a value later is a plain constraint swap.

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

-- Decisions §5. `token` fences a claim: only its holder may complete or release it.
CREATE TABLE idempotency_records (
  scope text NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  token text NOT NULL,
  state text NOT NULL CHECK (state IN ('IN_PROGRESS', 'COMPLETED')),
  response_status integer CHECK (response_status BETWEEN 100 AND 599),
  -- json, not jsonb: a replay sends back the body exactly as first recorded (key order included).
  response_body json,
  created_at timestamptz NOT NULL,
  locked_at timestamptz NOT NULL,
  completed_at timestamptz,
  CONSTRAINT idempotency_records_scope_key UNIQUE (scope, idempotency_key),
  CONSTRAINT idempotency_records_completed_has_response
    CHECK ((state = 'COMPLETED') = (response_status IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX idempotency_records_by_creation ON idempotency_records (created_at);

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
