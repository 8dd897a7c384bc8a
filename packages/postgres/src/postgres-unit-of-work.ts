import {
  type CommitOutcomeUnknown,
  commitOutcomeUnknown,
  type IdempotencyLockLost,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import { type ClientCreation, sendClientCreation } from './client-creation.js';
import type { KitTables } from './kit-tables.js';
import { createPostgresAuditLog } from './postgres-audit-log.js';
import { createPostgresClientRepository } from './postgres-client-repository.js';
import { createPostgresDocumentIndex } from './postgres-document-index.js';
import { createPostgresEventLog } from './postgres-event-log.js';
import { createPostgresIdempotencyStore, lockLost } from './postgres-idempotency-store.js';
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

/**
 * A failed commit (a COMMIT, or a create's statement committed on its own): refused by the server,
 * nothing was kept; without an answer (the connection dropped), it may have been kept or not:
 * atomic, but unknown to us.
 */
const commitFailure = (failure: unknown): StorageUnavailable | CommitOutcomeUnknown =>
  serverRefused(failure) ? unavailable(failure) : outcomeUnknown(failure);

type TransactionFailure = StorageUnavailable | CommitOutcomeUnknown | IdempotencyLockLost;

/**
 * One command is one transaction: BEGIN before its first statement, one statement per store call,
 * COMMIT when `work` resolves Ok, ROLLBACK when it resolves Err. A client whose connection failed
 * is destroyed, not returned to the pool.
 *
 * A create is the exception, for its round trips: while nothing has been sent, the writes a create
 * is made of (the client, its documents, its events and their webhook job, its idempotency
 * completion, its audit entry) are gathered and sent at the commit as the one statement of client-creation.ts,
 * committed on its own (no BEGIN, no COMMIT). Any other statement first opens the transaction and
 * sends what was gathered in it. When that statement finds the create's claim lost, it writes
 * nothing and the transaction ends `IdempotencyLockLost`.
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
  const transaction = openTransaction(pool, tables, jobs);
  let outcome: Result<T, E>;
  try {
    outcome = await work(transactionalStores(transaction, tables, jobs));
  } catch (failure) {
    // A command that throws broke its own contract; nothing of it is kept.
    await transaction.rollback();
    return err(unavailable(failure));
  }
  if (outcome.isErr()) {
    const refused = await transaction.rollback();
    return refused === undefined ? outcome : err(refused);
  }
  const committed = await transaction.commit();
  return committed.isErr() ? err(committed.error) : outcome;
};

/** The stores on the transaction's session, the writes of a create gathered while it is one. */
const transactionalStores = (
  transaction: OpenTransaction,
  tables: KitTables,
  jobs: TransactionJobs,
): TransactionalStores => {
  const { session, gather } = transaction;
  const clients = createPostgresClientRepository(session, tables);
  const documents = createPostgresDocumentIndex(session, tables);
  const events = createPostgresEventLog(session, tables);
  const audit = createPostgresAuditLog(session, tables);
  const idempotency = createPostgresIdempotencyStore(session, tables);
  const webhookJobs = createPostgresWebhookJobQueue(session, tables, jobs);
  const screeningJobs = createPostgresScreeningJobQueue(session, jobs);
  const gathered = okAsync<void, never>(undefined);
  return {
    clients: {
      ...clients,
      insert: (client, entry) =>
        gather.start({
          client,
          entry,
          documents: [],
          events: [],
          deliveries: [],
          auditEntries: [],
          screenings: [],
        })
          ? gathered
          : clients.insert(client, entry),
    },
    documents: {
      ...documents,
      insertMany: (records) =>
        gather.add((creation) => creation.documents.push(...records))
          ? gathered
          : documents.insertMany(records),
    },
    events: {
      rewriteForClient: (clientId, rewrite) => events.rewriteForClient(clientId, rewrite),
      append: (logged) =>
        gather.add((creation) => creation.events.push(...logged)) ? gathered : events.append(logged),
    },
    audit: {
      redactChanges: (clientId) => audit.redactChanges(clientId),
      append: (entries) =>
        gather.add((creation) => creation.auditEntries.push(...entries)) ? gathered : audit.append(entries),
    },
    idempotency: {
      forgetClient: (clientId) => idempotency.forgetClient(clientId),
      complete: (ref, outcome, at) => {
        if (!gather.active()) return idempotency.complete(ref, outcome, at);
        // Serialized now, so that an outcome JSON cannot hold (a BigInt, a cycle) is this call's Err.
        let serialized: string;
        try {
          serialized = JSON.stringify(outcome);
        } catch (failure) {
          return errAsync(unavailable(failure));
        }
        gather.add((creation) => {
          creation.completion = { ref, outcome: serialized, at };
        });
        return gathered;
      },
    },
    webhookEndpoints: createPostgresWebhookEndpointStore(session, tables),
    webhookDeliveries: createPostgresWebhookDeliveryStore(session, tables),
    webhookJobs: {
      ...webhookJobs,
      enqueueEventDeliveries: (logged) =>
        gather.add((creation) => creation.deliveries.push(...logged))
          ? gathered
          : webhookJobs.enqueueEventDeliveries(logged),
    },
    screeningJobs: {
      enqueueScreening: (clientId) =>
        gather.add((creation) => creation.screenings.push(clientId))
          ? gathered
          : screeningJobs.enqueueScreening(clientId),
    },
  };
};

type OpenTransaction = {
  readonly session: SqlSession;
  /** The writes of a create, gathered while nothing else has been sent. */
  readonly gather: {
    /** Starts gathering a create: false (nothing taken) once any statement was sent, or one was started. */
    start(creation: ClientCreation): boolean;
    /** Adds to the create being gathered: false (nothing taken) when none is. */
    add(change: (creation: ClientCreation) => void): boolean;
    active(): boolean;
  };
  commit(): Promise<Result<void, TransactionFailure>>;
  /** Rolls back what was sent; the lost claim that ended the transaction, if one did. */
  rollback(): Promise<IdempotencyLockLost | undefined>;
};

const openTransaction = (pool: Pool, tables: KitTables, jobs: TransactionJobs): OpenTransaction => {
  let creation: ClientCreation | undefined;
  /** Set as soon as a statement is asked for: from then on nothing is gathered. */
  let opened = false;
  let held: CheckedOutClient | undefined;
  let ended = false;
  let claimLost: IdempotencyLockLost | undefined;
  // The statements of one transaction go one after the other (the work may start two at once).
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <R>(step: () => Promise<R>): Promise<R> => {
    const turn = queue.then(step);
    queue = turn.catch(() => undefined);
    return turn;
  };

  /** Sends `gathered` on `db`; a lost claim is remembered as the transaction's outcome. */
  const sendCreation = async (db: CheckedOutClient['client'], gathered: ClientCreation) => {
    const written = await sendClientCreation(db, tables, gathered, jobs.jobExpirySeconds);
    if (!written && gathered.completion !== undefined) {
      claimLost = lockLost(gathered.completion.ref);
      throw new Error('the idempotency claim of this create was lost: nothing was written');
    }
  };

  /** The transaction's connection, BEGIN sent, and the gathered create sent in it. */
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
    if (creation !== undefined) {
      const gathered = creation;
      creation = undefined;
      await sendCreation(held.client, gathered);
    }
    return held.client;
  };

  const afterTheEnd = () =>
    new Error('this unit of work has ended: a statement sent after it would not be part of it');

  const session: SqlSession = {
    query: (statement, values) => {
      if (ended) return Promise.reject(afterTheEnd());
      opened = true;
      return inTurn(async () => {
        const client = await begin();
        return typeof statement === 'string' ? client.query(statement, values) : client.query(statement);
      });
    },
    atomically: (statements) => {
      if (ended) return Promise.reject(afterTheEnd());
      opened = true;
      return inTurn(async () => statements(await begin()));
    },
  };

  const releaseHeld = async () => {
    const checkedOut = held;
    held = undefined;
    if (checkedOut !== undefined) await rollbackAndRelease(checkedOut);
  };

  /** The gathered create alone, as one statement committed on its own. */
  const commitCreation = async (gathered: ClientCreation): Promise<Result<void, TransactionFailure>> => {
    let checkedOut: CheckedOutClient;
    try {
      checkedOut = await checkOut(pool);
    } catch (failure) {
      return err(unavailable(failure));
    }
    try {
      const written = await sendClientCreation(checkedOut.client, tables, gathered, jobs.jobExpirySeconds);
      checkedOut.release();
      return written || gathered.completion === undefined
        ? ok(undefined)
        : err(lockLost(gathered.completion.ref));
    } catch (failure) {
      // A connection whose statement the server refused is sound; one that gave no answer is not.
      checkedOut.release(serverRefused(failure) ? undefined : failure);
      return err(commitFailure(failure));
    }
  };

  const commitTransaction = async (): Promise<Result<void, TransactionFailure>> => {
    const checkedOut = held;
    if (checkedOut === undefined) {
      // Its BEGIN (or the connection for it) failed: nothing was sent, nothing is kept.
      return err(claimLost ?? unavailable(new Error('the transaction could not be opened')));
    }
    try {
      await checkedOut.client.query('COMMIT');
    } catch (failure) {
      // Refused by the server (a deferred constraint, a serialization failure): rolled back.
      await releaseHeld();
      return err(commitFailure(failure));
    }
    held = undefined;
    checkedOut.release();
    return ok(undefined);
  };

  return {
    session,
    gather: {
      start: (started) => {
        if (ended || opened || creation !== undefined) return false;
        creation = started;
        return true;
      },
      add: (change) => {
        if (ended || opened || creation === undefined) return false;
        change(creation);
        return true;
      },
      active: () => !ended && !opened && creation !== undefined,
    },
    commit: () =>
      inTurn(async () => {
        ended = true;
        if (opened) return commitTransaction();
        const gathered = creation;
        creation = undefined;
        return gathered === undefined ? ok(undefined) : commitCreation(gathered);
      }),
    rollback: () =>
      inTurn(async () => {
        ended = true;
        creation = undefined;
        await releaseHeld();
        return claimLost;
      }),
  };
};
