/** The schema every table of the kit lives in unless the host names another. */
export const defaultSchema = 'onboarding_kit';

/**
 * The job engine's schema is the kit's + `_jobs`, and pg-boss refuses schema names over 50
 * characters (PostgreSQL's own limit, 63 bytes, would cut it silently): the kit's is at most 45.
 */
const JOB_SCHEMA_SUFFIX = '_jobs';
const MAX_SCHEMA_LENGTH = 50 - JOB_SCHEMA_SUFFIX.length;
const identifierShape = new RegExp(`^[a-z_][a-z0-9_]{0,${MAX_SCHEMA_LENGTH - 1}}$`);

/** Schema-qualified, quoted names of the kit's tables, ready to paste into SQL text. */
export type KitTables = {
  readonly schema: string;
  readonly quotedSchema: string;
  readonly clients: string;
  readonly representatives: string;
  readonly bankAccounts: string;
  readonly wallets: string;
  readonly statusHistory: string;
  readonly documents: string;
  /** Claims of commands on the uploads they are promoting (`DocumentIndex.claimUploads`). */
  readonly temporaryFileClaims: string;
  readonly presetFees: string;
  readonly idempotency: string;
  /** Per owner, how many idempotency records are stored (kept by triggers on `idempotency_records`). */
  readonly idempotencyOwnerRecords: string;
  readonly apiKeys: string;
  readonly events: string;
  readonly webhookEndpoints: string;
  readonly webhookDeliveries: string;
  /** The audit trail, append-only (migration 0002). */
  readonly auditEntries: string;
  /** The host's seal of each entry, append-only (migration 0021). */
  readonly auditSeals: string;
  /** The index of screened names, and the list versions monitored (migration 0009). */
  readonly screenedNames: string;
  readonly screeningListVersions: string;
  readonly migrations: string;
  /** The schema of the job engine (pg-boss): the kit's schema + `_jobs`. */
  readonly jobSchema: string;
};

/**
 * Table names are pasted into SQL (identifiers cannot be bind parameters), so the schema name is
 * restricted to a plain lower-case identifier and quoted; anything else is a programming error.
 */
export const kitTables = (schema: string = defaultSchema): KitTables => {
  if (!identifierShape.test(schema)) {
    throw new TypeError(
      `Invalid schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most ${MAX_SCHEMA_LENGTH} characters`,
    );
  }
  const quotedSchema = `"${schema}"`;
  const table = (name: string) => `${quotedSchema}.${name}`;
  return {
    schema,
    quotedSchema,
    clients: table('clients'),
    representatives: table('company_representatives'),
    bankAccounts: table('bank_accounts'),
    wallets: table('blockchain_wallets'),
    statusHistory: table('client_status_history'),
    documents: table('documents'),
    temporaryFileClaims: table('temporary_file_claims'),
    presetFees: table('preset_fees'),
    idempotency: table('idempotency_records'),
    idempotencyOwnerRecords: table('idempotency_owner_records'),
    apiKeys: table('api_keys'),
    events: table('client_events'),
    webhookEndpoints: table('webhook_endpoints'),
    webhookDeliveries: table('webhook_deliveries'),
    auditEntries: table('audit_entries'),
    auditSeals: table('audit_seals'),
    screenedNames: table('screened_names'),
    screeningListVersions: table('screening_list_versions'),
    migrations: table('schema_migrations'),
    jobSchema: `${schema}${JOB_SCHEMA_SUFFIX}`,
  };
};
