import type {
  ApiKeyStore,
  AuditLog,
  ClientRepository,
  DocumentIndex,
  EventLog,
  IdempotencyStore,
  PresetFeeRepository,
  ScreenedNameIndex,
  UnitOfWork,
  WebhookDeliveryStore,
  WebhookEndpointStore,
} from '@onboarding-kit/core/adapter';
import type { Pool } from 'pg';
import { defaultSchema, kitTables } from './kit-tables.js';
import { createPostgresApiKeyStore } from './postgres-api-key-store.js';
import { createPostgresAuditLog } from './postgres-audit-log.js';
import { createPostgresClientRepository } from './postgres-client-repository.js';
import { createPostgresDocumentIndex } from './postgres-document-index.js';
import { createPostgresEventLog } from './postgres-event-log.js';
import { createPostgresIdempotencyStore } from './postgres-idempotency-store.js';
import { createJobEngine, defaultWebhookJobExpirySeconds } from './postgres-job-engine.js';
import { createPostgresPresetFeeRepository } from './postgres-preset-fee-repository.js';
import { createPostgresScreenedNameIndex } from './postgres-screened-name-index.js';
import { createPostgresUnitOfWork } from './postgres-unit-of-work.js';
import { createPostgresWebhookDeliveryStore } from './postgres-webhook-delivery-store.js';
import { createPostgresWebhookEndpointStore } from './postgres-webhook-endpoint-store.js';
import { poolSession } from './sql-session.js';

export type PostgresAdaptersOptions = {
  /** A node-postgres pool on the database that `migrate` prepared. */
  readonly pool: Pool;
  /** Schema holding the kit's tables; the same one given to `migrate`. Default `onboarding_kit`. */
  readonly schema?: string;
  /**
   * After this long active (whole seconds, 1 to 86,399; default 60), a webhook job is taken for
   * abandoned (its process died) and run again. Lower it only with the kit's `webhookAttemptTimeoutMs`.
   */
  readonly webhookJobExpirySeconds?: number;
};

/** Every persistence port of the kit (all but document storage, clock and ids) on one pool. */
export type PostgresAdapters = {
  readonly clients: ClientRepository;
  readonly documentIndex: DocumentIndex;
  readonly presetFees: PresetFeeRepository;
  readonly idempotency: IdempotencyStore;
  readonly events: EventLog;
  readonly audit: AuditLog;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveries: WebhookDeliveryStore;
  readonly apiKeys: ApiKeyStore;
  readonly screenedNames: ScreenedNameIndex;
  readonly unitOfWork: UnitOfWork;
};

const poolsWithErrorListener = new WeakSet<Pool>();

export const createPostgresAdapters = ({
  pool,
  schema = defaultSchema,
  webhookJobExpirySeconds = defaultWebhookJobExpirySeconds,
}: PostgresAdaptersOptions): PostgresAdapters => {
  // node-postgres re-emits the error of an idle pooled connection (a database restart, a
  // terminated backend) on the pool, and an unheard 'error' event would end the process. The
  // pool has already dropped that connection; the next query opens a new one.
  if (!poolsWithErrorListener.has(pool)) {
    poolsWithErrorListener.add(pool);
    pool.on('error', () => undefined);
  }
  // pg-boss's insert takes a job's expiry as given (its send checked it): whole seconds, under a day.
  const expiry = webhookJobExpirySeconds;
  if (!Number.isInteger(expiry) || expiry < 1 || expiry >= 86_400)
    throw new TypeError(`webhookJobExpirySeconds must be whole seconds from 1 to 86,399: ${expiry}`);
  const tables = kitTables(schema);
  const session = poolSession(pool);
  return {
    clients: createPostgresClientRepository(session, tables),
    documentIndex: createPostgresDocumentIndex(session, tables),
    presetFees: createPostgresPresetFeeRepository(session, tables),
    idempotency: createPostgresIdempotencyStore(session, tables),
    events: createPostgresEventLog(session, tables),
    audit: createPostgresAuditLog(session, tables),
    webhookEndpoints: createPostgresWebhookEndpointStore(session, tables),
    webhookDeliveries: createPostgresWebhookDeliveryStore(session, tables),
    apiKeys: createPostgresApiKeyStore(session, tables),
    screenedNames: createPostgresScreenedNameIndex(session, tables),
    unitOfWork: createPostgresUnitOfWork(pool, tables, {
      // Only sends jobs (within the commands' transactions); a job runner starts its own instance.
      boss: createJobEngine(pool, tables.jobSchema),
      jobExpirySeconds: webhookJobExpirySeconds,
      managerTurns: new Map(),
    }),
  };
};
