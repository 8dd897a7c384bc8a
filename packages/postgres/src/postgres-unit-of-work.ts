import {
  type CommitOutcomeUnknown,
  commitOutcomeUnknown,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import type { KitTables } from './kit-tables.js';
import { createPostgresAuditLog } from './postgres-audit-log.js';
import { createPostgresClientRepository } from './postgres-client-repository.js';
import { createPostgresDocumentIndex } from './postgres-document-index.js';
import { createPostgresEventLog } from './postgres-event-log.js';
import { createPostgresIdempotencyStore } from './postgres-idempotency-store.js';
import { createPostgresScreenedNameIndex } from './postgres-screened-name-index.js';
import { createPostgresScreeningJobQueue } from './postgres-screening-job-queue.js';
import { createPostgresWebhookDeliveryStore } from './postgres-webhook-delivery-store.js';
import { createPostgresWebhookEndpointStore } from './postgres-webhook-endpoint-store.js';
import { createPostgresWebhookJobQueue, type TransactionJobs } from './postgres-webhook-job-queue.js';
import { type CheckedOutClient, checkOut, rollbackAndRelease, type SqlSession } from './sql-session.js';

export type { TransactionJobs } from './postgres-webhook-job-queue.js';

const unavailable = storageUnavailable('postgres');
const outcomeUnknown = commitOutcomeUnknown('postgres');

/** An error PostgreSQL sent (it carries a SQLSTATE), as opposed to a lost or broken connection. */
const serverRefused = (failure: unknown): boolean =>
  typeof failure === 'object' &&
  failure !== null &&
  'code' in failure &&
  typeof failure.code === 'string' &&
  /^[0-9A-Z]{5}$/.test(failure.code);

type TransactionFailure = StorageUnavailable | CommitOutcomeUnknown;

/**
 * One command is one transaction: BEGIN before its first statement, one statement per store call,
 * COMMIT when `work` resolves Ok, ROLLBACK when it resolves Err. Every command, a create included,
 * writes through the same stores: each store sends its own SQL. A client whose connection failed
 * is destroyed, not returned to the pool.
 */
export const createPostgresUnitOfWork = (
  pool: Pool,
  tables: KitTables,
  jobs: TransactionJobs,
): UnitOfWork => ({
  transaction: <T, E>(work: (stores: TransactionalStores) => ResultAsync<T, E>) =>
    new ResultAsync(runTransaction(pool, tables, jobs, work)),
});

const runTransaction = async <T, E>(
  pool: Pool,
  tables: KitTables,
  jobs: TransactionJobs,
  work: (stores: TransactionalStores) => ResultAsync<T, E>,
): Promise<Result<T, E | TransactionFailure>> => {
  const transaction = openTransaction(pool);
  let outcome: Result<T, E>;
  try {
    outcome = await work(new LazyTransactionalStores(transaction.session, tables, jobs));
  } catch (failure) {
    // A command that throws broke its own contract; nothing of it is kept.
    await transaction.rollback();
    return err(unavailable(failure));
  }
  if (outcome.isErr()) {
    await transaction.rollback();
    return outcome;
  }
  const committed = await transaction.commit();
  return committed.isErr() ? err(committed.error) : outcome;
};

/**
 * Every store on the transaction's session, each made when the command first uses it. A class, so
 * that a transaction costs one object (the getters are on its prototype), not ten closures and an
 * object of getters made anew for each.
 */
class LazyTransactionalStores implements TransactionalStores {
  #clients?: TransactionalStores['clients'];
  #documents?: TransactionalStores['documents'];
  #events?: TransactionalStores['events'];
  #audit?: TransactionalStores['audit'];
  #idempotency?: TransactionalStores['idempotency'];
  #webhookEndpoints?: TransactionalStores['webhookEndpoints'];
  #webhookDeliveries?: TransactionalStores['webhookDeliveries'];
  #webhookJobs?: TransactionalStores['webhookJobs'];
  #screeningJobs?: TransactionalStores['screeningJobs'];
  #screenedNames?: TransactionalStores['screenedNames'];

  constructor(
    private readonly session: SqlSession,
    private readonly tables: KitTables,
    private readonly jobs: TransactionJobs,
  ) {}

  get clients() {
    this.#clients ??= createPostgresClientRepository(this.session, this.tables);
    return this.#clients;
  }
  get documents() {
    this.#documents ??= createPostgresDocumentIndex(this.session, this.tables);
    return this.#documents;
  }
  get events() {
    this.#events ??= createPostgresEventLog(this.session, this.tables);
    return this.#events;
  }
  get audit() {
    this.#audit ??= createPostgresAuditLog(this.session, this.tables);
    return this.#audit;
  }
  get idempotency() {
    this.#idempotency ??= createPostgresIdempotencyStore(this.session, this.tables);
    return this.#idempotency;
  }
  get webhookEndpoints() {
    this.#webhookEndpoints ??= createPostgresWebhookEndpointStore(this.session, this.tables);
    return this.#webhookEndpoints;
  }
  get webhookDeliveries() {
    this.#webhookDeliveries ??= createPostgresWebhookDeliveryStore(this.session, this.tables);
    return this.#webhookDeliveries;
  }
  get webhookJobs() {
    this.#webhookJobs ??= createPostgresWebhookJobQueue(this.session, this.tables, this.jobs);
    return this.#webhookJobs;
  }
  get screeningJobs() {
    this.#screeningJobs ??= createPostgresScreeningJobQueue(this.session, this.tables, this.jobs);
    return this.#screeningJobs;
  }
  get screenedNames() {
    this.#screenedNames ??= createPostgresScreenedNameIndex(this.session, this.tables);
    return this.#screenedNames;
  }
}

type OpenTransaction = {
  readonly session: SqlSession;
  commit(): Promise<Result<void, TransactionFailure>>;
  rollback(): Promise<void>;
};

/** A transaction opened at its first statement, on a connection held until it ends. */
const openTransaction = (pool: Pool): OpenTransaction => {
  let held: CheckedOutClient | undefined;
  let ended = false;
  // The statements of one transaction go one after the other (the work may start two at once).
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <R>(step: () => Promise<R>): Promise<R> => {
    // After the previous step whether it succeeded or failed (its own caller hears which): one
    // promise a statement, not a second one only to swallow the previous step's failure.
    const turn = queue.then(step, step);
    queue = turn;
    return turn;
  };

  /** The transaction's connection, BEGIN sent. */
  const begin = async (): Promise<CheckedOutClient['client']> => {
    if (held === undefined) {
      const checkedOut = await checkOut(pool);
      try {
        await checkedOut.client.query('BEGIN');
      } catch (failure) {
        checkedOut.release(failure);
        throw failure;
      }
      held = checkedOut;
    }
    return held.client;
  };

  const afterTheEnd = () =>
    new Error('this unit of work has ended: a statement sent after it would not be part of it');

  const session: SqlSession = {
    query: (statement, values) => {
      if (ended) return Promise.reject(afterTheEnd());
      const send = (client: CheckedOutClient['client']) =>
        typeof statement === 'string' ? client.query(statement, values) : client.query(statement);
      // Every statement after the first finds the connection held: sent without waiting for `begin`.
      return inTurn(() => (held === undefined ? begin().then(send) : send(held.client)));
    },
    atomically: (statements) => {
      if (ended) return Promise.reject(afterTheEnd());
      return inTurn(async () => statements(await begin()));
    },
  };

  const releaseHeld = async () => {
    const checkedOut = held;
    held = undefined;
    if (checkedOut !== undefined) await rollbackAndRelease(checkedOut);
  };

  return {
    session,
    commit: () =>
      inTurn(async (): Promise<Result<void, TransactionFailure>> => {
        ended = true;
        const checkedOut = held;
        // No statement was sent: there is nothing to commit.
        if (checkedOut === undefined) return ok(undefined);
        let committed: { command: string };
        try {
          committed = await checkedOut.client.query('COMMIT');
        } catch (failure) {
          // Refused by the server (a deferred constraint, a serialization failure): rolled back.
          // Without an answer (the connection dropped), it may have been kept or not.
          await releaseHeld();
          return err(serverRefused(failure) ? unavailable(failure) : outcomeUnknown(failure));
        }
        held = undefined;
        checkedOut.release();
        // A transaction a failed statement aborted answers COMMIT with ROLLBACK, not an error.
        return committed.command === 'COMMIT'
          ? ok(undefined)
          : err(unavailable(new Error('the transaction was aborted by a failed statement: rolled back')));
      }),
    rollback: () =>
      inTurn(async () => {
        ended = true;
        await releaseHeld();
      }),
  };
};
