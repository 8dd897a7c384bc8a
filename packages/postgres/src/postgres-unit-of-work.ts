import {
  type CommitOutcomeUnknown,
  commitOutcomeUnknown,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core';
import { err, type Result, ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import type { KitTables } from './kit-tables.js';
import { createPostgresClientRepository } from './postgres-client-repository.js';
import { createPostgresDocumentIndex } from './postgres-document-index.js';
import { createPostgresEventLog, type WebhookEndpointPresence } from './postgres-event-log.js';
import { createPostgresIdempotencyStore } from './postgres-idempotency-store.js';
import { createPostgresWebhookDeliveryStore } from './postgres-webhook-delivery-store.js';
import { createPostgresWebhookJobQueue } from './postgres-webhook-job-queue.js';
import { type CheckedOutClient, checkOut, rollbackAndRelease, transactionSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');
const outcomeUnknown = commitOutcomeUnknown('postgres');

/** An error PostgreSQL sent (it carries a SQLSTATE), as opposed to a lost or broken connection. */
const serverRefused = (failure: unknown): boolean =>
  typeof failure === 'object' &&
  failure !== null &&
  'code' in failure &&
  typeof failure.code === 'string' &&
  /^[0-9A-Z]{5}$/.test(failure.code);

/**
 * One command is one transaction on one pooled client: BEGIN, the command's statements, then
 * COMMIT when it resolves Ok or ROLLBACK when it resolves Err. A client whose connection failed is
 * destroyed rather than returned to the pool.
 */
export const createPostgresUnitOfWork = (
  pool: Pool,
  tables: KitTables,
  jobs: TransactionJobs,
): UnitOfWork => ({
  transaction: <T, E>(work: (stores: TransactionalStores) => ResultAsync<T, E>) =>
    new ResultAsync(runTransaction(pool, tables, jobs, work)),
});

/** The job engine the transaction's webhook jobs are sent to, and how long a job may stay active. */
export type TransactionJobs = { readonly boss: PgBoss; readonly jobExpirySeconds: number };

const runTransaction = async <T, E>(
  pool: Pool,
  tables: KitTables,
  jobs: TransactionJobs,
  work: (stores: TransactionalStores) => ResultAsync<T, E>,
): Promise<Result<T, E | StorageUnavailable | CommitOutcomeUnknown>> => {
  let held: CheckedOutClient;
  try {
    held = await checkOut(pool);
  } catch (failure) {
    return err(unavailable(failure));
  }
  const { client } = held;
  try {
    await client.query('BEGIN');
  } catch (failure) {
    held.release(failure);
    return err(unavailable(failure));
  }
  const session = transactionSession(client);
  const endpointPresence: WebhookEndpointPresence = new Map();
  let outcome: Result<T, E>;
  try {
    outcome = await work({
      clients: createPostgresClientRepository(session, tables),
      documents: createPostgresDocumentIndex(session, tables),
      idempotency: createPostgresIdempotencyStore(session, tables),
      events: createPostgresEventLog(session, tables, endpointPresence),
      webhookDeliveries: createPostgresWebhookDeliveryStore(session, tables),
      webhookJobs: createPostgresWebhookJobQueue(session, tables, jobs, endpointPresence),
    });
  } catch (failure) {
    // A command that throws broke its own contract; nothing of it is kept.
    await rollbackAndRelease(held);
    return err(unavailable(failure));
  }
  if (outcome.isErr()) {
    await rollbackAndRelease(held);
    return outcome;
  }
  try {
    await client.query('COMMIT');
    held.release();
    return outcome;
  } catch (failure) {
    await rollbackAndRelease(held);
    // The server answered with an error (a deferred constraint, a serialization failure): it rolled
    // the transaction back. Without an answer (the connection dropped), the commit may have been
    // kept or not: atomic, but unknown to us.
    return err(serverRefused(failure) ? unavailable(failure) : outcomeUnknown(failure));
  }
};
