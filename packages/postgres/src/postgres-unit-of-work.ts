import {
  type CommitOutcomeUnknown,
  commitOutcomeUnknown,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { Pool, PoolClient } from 'pg';
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

/**
 * A transaction opened at its first statement, on a connection held until it ends. Its statements
 * go one after the other: each waits for the answer of the one before, unless the host's pool makes
 * clients that pipeline (node-postgres's `pipeline: true`). Then BEGIN and every statement the work
 * has already asked for are sent at once, behind those in flight, and PostgreSQL runs them in that
 * order: the work waits only where it reads an answer (docs/decisions.md, "PostgreSQL write path").
 * A statement that fails aborts the transaction, so those sent behind it fail too; the work reports
 * the first failure it reads, in the order it asked.
 */
const openTransaction = (pool: Pool): OpenTransaction => {
  let held: CheckedOutClient | undefined;
  let ended = false;
  const pipelined = pool.options.pipeline === true;
  /** Settles when the next step may go to the driver: the one before it answered (or, pipelined, sent). */
  let queue: Promise<unknown> = Promise.resolve();
  /** Pipelined steps whose turn has not come or not ended. */
  let waiting = 0;
  /** Why BEGIN failed, when it was sent without waiting for its answer. */
  let beginFailure: { readonly cause: unknown } | undefined;

  /** The transaction's connection, BEGIN sent (and answered, unless it pipelines). */
  const begin = async (): Promise<PoolClient> => {
    if (held === undefined) {
      const checkedOut = await checkOut(pool);
      if (checkedOut.client.pipeline) {
        // It fails only with its connection, which fails every statement behind it as well.
        checkedOut.client.query('BEGIN').catch((cause: unknown) => {
          beginFailure = { cause };
        });
      } else {
        try {
          await checkedOut.client.query('BEGIN');
        } catch (failure) {
          checkedOut.release(failure);
          throw failure;
        }
      }
      held = checkedOut;
    }
    return held.client;
  };

  /**
   * Runs `step` on the transaction's connection once the steps asked for before it let it. Pipelined,
   * a statement (`whole` false) lets the next one go once it is sent; several statements in one step
   * (`atomically`) hold the turn until they are answered.
   */
  const inTurn = <R>(step: (client: PoolClient) => Promise<R>, whole: boolean): Promise<R> => {
    if (!pipelined) {
      // After the previous step whether it succeeded or failed (its own caller hears which): one
      // promise a statement, not a second one only to swallow the previous step's failure.
      const run = () => (held === undefined ? begin().then(step) : step(held.client));
      const turn = queue.then(run, run);
      queue = turn;
      return turn;
    }
    // Nothing asked for before it still waits: sent at once, behind what is in flight.
    if (held !== undefined && waiting === 0 && !whole) return step(held.client);
    waiting += 1;
    const previous = queue;
    let endTurn = () => {};
    queue = new Promise<void>((resolve) => {
      endTurn = () => {
        waiting -= 1;
        resolve();
      };
    });
    const run = async (): Promise<R> => {
      let answer: Promise<R>;
      try {
        answer = step(await begin());
        if (whole) await answer.catch(() => undefined);
      } finally {
        endTurn();
      }
      return answer;
    };
    return previous.then(run, run);
  };

  const afterTheEnd = () =>
    new Error('this unit of work has ended: a statement sent after it would not be part of it');

  const session: SqlSession = {
    query: (statement, values) => {
      if (ended) return Promise.reject(afterTheEnd());
      return inTurn(
        (client) =>
          typeof statement === 'string' ? client.query(statement, values) : client.query(statement),
        false,
      );
    },
    atomically: (statements) => {
      if (ended) return Promise.reject(afterTheEnd());
      return inTurn(statements, true);
    },
  };

  /**
   * Runs `end` (COMMIT, ROLLBACK) after every step asked for before it: once they are answered, or on
   * a connection that pipelines once they are sent. PostgreSQL answers its COMMIT after theirs, and
   * with ROLLBACK when one of them failed.
   */
  const afterEveryStep = <R>(end: () => Promise<R>): Promise<R> => {
    const turn = queue.then(end, end);
    queue = turn;
    return turn;
  };

  const releaseHeld = async () => {
    const checkedOut = held;
    held = undefined;
    if (checkedOut !== undefined) await rollbackAndRelease(checkedOut);
  };

  return {
    session,
    commit: () =>
      afterEveryStep(async (): Promise<Result<void, TransactionFailure>> => {
        ended = true;
        const checkedOut = held;
        // No statement was sent: there is nothing to commit.
        if (checkedOut === undefined) return ok(undefined);
        if (beginFailure !== undefined) {
          await releaseHeld();
          return err(unavailable(beginFailure.cause));
        }
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
      afterEveryStep(async () => {
        ended = true;
        await releaseHeld();
      }),
  };
};
