import {
  type CommitOutcomeUnknown,
  commitOutcomeUnknown,
  type IdempotencyLockLost,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { Pool, QueryResult } from 'pg';
import type { KitTables } from './kit-tables.js';
import { createPostgresClientRepository } from './postgres-client-repository.js';
import { createPostgresDocumentIndex } from './postgres-document-index.js';
import { createPostgresEventLog } from './postgres-event-log.js';
import { createPostgresIdempotencyStore } from './postgres-idempotency-store.js';
import { createPostgresWebhookDeliveryStore } from './postgres-webhook-delivery-store.js';
import { createPostgresWebhookEndpointStore } from './postgres-webhook-endpoint-store.js';
import {
  createPostgresWebhookJobQueue,
  decisionManagers,
  deliveryJob,
  sendWebhookJob,
  type TransactionJobs,
  type WebhookJobDecision,
  webhookJobWrite,
} from './postgres-webhook-job-queue.js';
import {
  type CheckedOutClient,
  checkOut,
  rollbackAndRelease,
  runBatch,
  type SqlSession,
  statementsPerSchema,
} from './sql-session.js';
import { type BatchedWrite, BatchedWriteRefused, batchResult, type WriteTemplate } from './write-batch.js';

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
 * A failed commit (a COMMIT, or a statement committed on its own): refused by the server, nothing
 * was kept; without an answer (the connection dropped), it may have been kept or not: atomic, but
 * unknown to us.
 */
const commitFailure = (failure: unknown): StorageUnavailable | CommitOutcomeUnknown =>
  serverRefused(failure) ? unavailable(failure) : outcomeUnknown(failure);

/** How the batch asks which managers have a webhook endpoint, built once per schema. */
const endpointTemplates = statementsPerSchema((tables) => {
  const endpointsOf = (values: string) =>
    `SELECT DISTINCT manager_id FROM ${tables.webhookEndpoints} WHERE manager_id = ANY(${values}::text[])`;
  return {
    /** Refuses the batch unless none of $1 and all of $2 have an endpoint. */
    endpointsAsExpected: {
      statements: [],
      requirement: `NOT EXISTS (${endpointsOf('$1')}) AND (SELECT count(*) FROM (${endpointsOf('$2')}) AS m) = cardinality($2::text[])`,
    } satisfies WriteTemplate,
    /** Answers which of the managers have an endpoint. */
    managersWithEndpoint: { statements: [], result: `ARRAY(${endpointsOf('$1')})` } satisfies WriteTemplate,
  };
});

/**
 * Managers last seen with a webhook endpoint, in this process: a command's events for them get
 * their job in the statement of its writes. Only a guide, checked by that statement: a manager not
 * in it must have no endpoint, one in it must have one; otherwise the statement is refused (nothing
 * kept) and the same writes go again in a transaction, which asks and sends the job as it must,
 * and corrects the guide. Bounded: at the bound it starts again empty.
 */
const MAX_SUBSCRIBED_MANAGERS = 10_000;
type SubscribedManagers = Set<string>;

/**
 * One command is one transaction. Its writes that need no answer (`SqlSession.write`: a created
 * client, its documents, its events, its idempotency record's completion) are held back and sent
 * together as one statement (write-batch.ts). A command made only of such writes, a create, is
 * that one statement, committed on its own: no BEGIN, no COMMIT, one round trip. Any other
 * statement opens a transaction (BEGIN), sends the held-back writes first, then itself; the
 * transaction commits when `work` resolves Ok and rolls back when it resolves Err. A requirement
 * that does not hold (a completion whose claim was lost) refuses the whole statement and is the
 * transaction's outcome. A client whose connection failed is destroyed, not returned to the pool.
 */
export const createPostgresUnitOfWork = (
  pool: Pool,
  tables: KitTables,
  jobs: TransactionJobs,
): UnitOfWork => {
  const subscribed: SubscribedManagers = new Set();
  return {
    transaction: <T, E>(work: (stores: TransactionalStores) => ResultAsync<T, E>) =>
      new ResultAsync(runTransaction({ pool, tables, jobs, subscribed }, work)),
  };
};

type TransactionSetting = {
  readonly pool: Pool;
  readonly tables: KitTables;
  readonly jobs: TransactionJobs;
  readonly subscribed: SubscribedManagers;
};

type TransactionFailure = StorageUnavailable | CommitOutcomeUnknown | IdempotencyLockLost;

const runTransaction = async <T, E>(
  setting: TransactionSetting,
  work: (stores: TransactionalStores) => ResultAsync<T, E>,
): Promise<Result<T, E | TransactionFailure>> => {
  const transaction = openTransaction(setting);
  const { session } = transaction;
  let outcome: Result<T, E>;
  try {
    outcome = await work({
      clients: createPostgresClientRepository(session, setting.tables),
      documents: createPostgresDocumentIndex(session, setting.tables),
      idempotency: createPostgresIdempotencyStore(session, setting.tables),
      events: createPostgresEventLog(session, setting.tables),
      webhookEndpoints: createPostgresWebhookEndpointStore(session, setting.tables),
      webhookDeliveries: createPostgresWebhookDeliveryStore(session, setting.tables),
      webhookJobs: createPostgresWebhookJobQueue(session, setting.jobs, transaction),
    });
  } catch (failure) {
    // A command that throws broke its own contract; nothing of it is kept.
    await transaction.abandon();
    return err(unavailable(failure));
  }
  if (outcome.isErr()) {
    const refused = await transaction.abandon();
    return refused === undefined ? outcome : err(refused);
  }
  const committed = await transaction.commit();
  return committed.isErr() ? err(committed.error) : outcome;
};

type OpenTransaction = {
  readonly session: SqlSession;
  add(decision: WebhookJobDecision): void;
  /** Sends what is held back and commits. */
  commit(): Promise<Result<void, TransactionFailure>>;
  /** Drops what is held back, rolls back what was sent; the refusal that ended it, if one did. */
  abandon(): Promise<IdempotencyLockLost | undefined>;
};

const openTransaction = ({ pool, tables, jobs, subscribed }: TransactionSetting): OpenTransaction => {
  let held: CheckedOutClient | undefined;
  let begun = false;
  let ended = false;
  let pending: BatchedWrite[] = [];
  let decisions: WebhookJobDecision[] = [];
  /** A requirement that did not hold in a statement sent inside the transaction. */
  let refusal: IdempotencyLockLost | undefined;
  // The statements of one transaction go one after the other (the work may start two at once).
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <R>(step: () => Promise<R>): Promise<R> => {
    const turn = queue.then(step);
    queue = turn.catch(() => undefined);
    return turn;
  };

  const remember = (managerId: string, hasEndpoint: boolean) => {
    if (!hasEndpoint) subscribed.delete(managerId);
    else if (!subscribed.has(managerId)) {
      if (subscribed.size >= MAX_SUBSCRIBED_MANAGERS) subscribed.clear();
      subscribed.add(managerId);
    }
  };

  /**
   * The held-back writes and the decided webhook jobs as one batch, to commit on its own
   * (`alone`): the job of a decision, for its managers seen with an endpoint, goes in the batch,
   * which requires that those and only those have one. `undefined` when a job cannot go in it.
   */
  const batchAlone = async (): Promise<BatchedWrite[] | undefined> => {
    const writes = [...pending];
    const { endpointsAsExpected } = endpointTemplates(tables);
    for (const decision of decisions) {
      const managerIds = decisionManagers(decision);
      const withEndpoint = managerIds.filter((id) => subscribed.has(id));
      if (withEndpoint.length > 0) {
        const jobWrite = await webhookJobWrite(jobs, deliveryJob(decision, new Set(withEndpoint)));
        if (jobWrite === undefined) return undefined;
        writes.push(jobWrite);
      }
      writes.push({
        template: endpointsAsExpected,
        values: [managerIds.filter((id) => !subscribed.has(id)), withEndpoint],
        failure: { type: 'WebhookEndpointsChanged' },
      });
    }
    return writes;
  };

  /**
   * The held-back writes as one batch inside the transaction, which also asks which managers of
   * each decision have an endpoint; `afterwards` sends their jobs, in the transaction.
   */
  const batchInTransaction = () => {
    const writes = [...pending];
    const { managersWithEndpoint } = endpointTemplates(tables);
    const asked = decisions.map((decision) => {
      const position = writes.length;
      writes.push({
        template: managersWithEndpoint,
        values: [decisionManagers(decision)],
      });
      return { position, decision };
    });
    pending = [];
    decisions = [];
    return {
      writes,
      afterwards: async (result: QueryResult, client: CheckedOutClient['client']) => {
        for (const { position, decision } of asked) {
          const answer = batchResult(result.rows[0], position);
          const withEndpoint = new Set(Array.isArray(answer) ? answer.map(String) : []);
          for (const { managerId } of decision.events) remember(managerId, withEndpoint.has(managerId));
          if (withEndpoint.size > 0) await sendWebhookJob(client, jobs, deliveryJob(decision, withEndpoint));
        }
      },
    };
  };

  const begin = async (): Promise<CheckedOutClient['client']> => {
    if (held === undefined) held = await checkOut(pool);
    const { client } = held;
    if (!begun) {
      try {
        await client.query('BEGIN');
      } catch (failure) {
        held.release(failure);
        held = undefined;
        throw failure;
      }
      begun = true;
    }
    return client;
  };

  /** Sends what is held back, inside the transaction (opened if it was not). */
  const flushInTransaction = async (): Promise<CheckedOutClient['client']> => {
    const client = await begin();
    if (pending.length === 0 && decisions.length === 0) return client;
    const { writes, afterwards } = batchInTransaction();
    try {
      await afterwards(await runBatch(client, tables, writes), client);
    } catch (failure) {
      if (failure instanceof BatchedWriteRefused && failure.failure.type === 'IdempotencyLockLost') {
        refusal = failure.failure;
      }
      throw failure;
    }
    return client;
  };

  const releaseHeld = async () => {
    const client = held;
    held = undefined;
    if (client === undefined) return;
    if (begun) await rollbackAndRelease(client);
    else client.release();
  };

  const afterTheEnd = () =>
    new Error('this unit of work has ended: a statement sent after it would not be part of it');

  const session: SqlSession = {
    query: (statement, values) =>
      ended
        ? Promise.reject(afterTheEnd())
        : inTurn(async () => {
            const client = await flushInTransaction();
            return typeof statement === 'string' ? client.query(statement, values) : client.query(statement);
          }),
    atomically: (statements) =>
      ended ? Promise.reject(afterTheEnd()) : inTurn(async () => statements(await flushInTransaction())),
    write: async (write) => {
      if (ended) throw afterTheEnd();
      pending.push(write);
    },
  };

  /**
   * The writes alone, as one statement committed on its own. When it is refused because the
   * managers with a webhook endpoint are not those expected, the same writes go in a transaction,
   * which asks them.
   */
  const commitAlone = async (): Promise<Result<void, TransactionFailure>> => {
    const writes = await batchAlone();
    if (writes === undefined) return commitInTransaction();
    let checkedOut: CheckedOutClient;
    try {
      checkedOut = await checkOut(pool);
    } catch (failure) {
      return err(unavailable(failure));
    }
    held = checkedOut;
    try {
      await runBatch(checkedOut.client, tables, writes);
    } catch (failure) {
      if (failure instanceof BatchedWriteRefused) {
        if (failure.failure.type === 'WebhookEndpointsChanged') return commitInTransaction();
        await releaseHeld();
        return err(failure.failure);
      }
      held = undefined;
      // A connection whose statement the server refused is sound; one that gave no answer is not.
      checkedOut.release(serverRefused(failure) ? undefined : failure);
      return err(commitFailure(failure));
    }
    await releaseHeld();
    return ok(undefined);
  };

  const commitInTransaction = async (): Promise<Result<void, TransactionFailure>> => {
    let client: CheckedOutClient['client'];
    try {
      client = await flushInTransaction();
    } catch (failure) {
      // Nothing was committed: the transaction is rolled back (or its connection is gone).
      const lockLost = refusal;
      await releaseHeld();
      return err(lockLost ?? unavailable(failure));
    }
    try {
      await client.query('COMMIT');
    } catch (failure) {
      await releaseHeld();
      // Refused by the server (a deferred constraint, a serialization failure): rolled back.
      return err(commitFailure(failure));
    }
    held?.release();
    held = undefined;
    return ok(undefined);
  };

  return {
    session,
    add: (decision) => {
      // Past the end, the job would not be part of the transaction: its events are not either.
      if (!ended) decisions.push(decision);
    },
    commit: () =>
      inTurn(async () => {
        ended = true;
        if (begun) return commitInTransaction();
        return pending.length === 0 && decisions.length === 0 ? ok(undefined) : commitAlone();
      }),
    abandon: () =>
      inTurn(async () => {
        ended = true;
        pending = [];
        decisions = [];
        await releaseHeld();
        return refusal;
      }),
  };
};
