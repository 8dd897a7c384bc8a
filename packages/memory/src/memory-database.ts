import { clearTimeout, setTimeout } from 'node:timers';
import type { AuditEntry, PresetFee, Principal, StatusHistoryEntry } from '@onboarding-kit/core';
import {
  type AuditChainLink,
  type DocumentRecord,
  type IndexedScreeningName,
  type LoggedEvent,
  type RecordedOutcome,
  type ScreeningJob,
  type StorageUnavailable,
  type StoredClient,
  type StoredWebhookDelivery,
  type StoredWebhookEndpoint,
  storageUnavailable,
  type WebhookJob,
} from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import { Table } from './memory-table.js';

export type IdempotencyRecord = {
  readonly owner: string;
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly token: string;
  /** When the current holder claimed it (ms): the age both TTLs and purges judge. */
  readonly claimedAt: number;
  /** When the lock was taken or last renewed (ms): the lock TTL counts from here. */
  readonly lockedAt: number;
  readonly outcome: RecordedOutcome | null;
};
/** Positions count 1, 2, 3 … in commit order: writers run one at a time. */
export type EventRow = LoggedEvent & { readonly position: number };
export type AuditRow = {
  readonly position: number;
  readonly entry: AuditEntry;
  readonly link: AuditChainLink;
};
/**
 * A job due at `runAt` (ms), by its `number` (the order enqueued); `attempts` it failed already
 * (the screening back-off grows with it); `turn` (ms) orders the due webhook jobs.
 */
export type QueuedJob<Job> = {
  readonly number: number;
  readonly runAt: number;
  readonly job: Job;
  readonly attempts: number;
  readonly turn: number;
};

/** Jobs soonest due first; ties keep the order enqueued (a stable sort of rows listed in that order). */
export const dueOrder = (a: QueuedJob<unknown>, b: QueuedJob<unknown>): number => a.runAt - b.runAt;

const rowsOf = <Row>() => new Map<string, Row>();
/** The tables of the memory database, by key; lists scan them. */
const emptyTables = () => ({
  clients: rowsOf<StoredClient>(),
  /** By client id: its turn in the queue of the waiting status it came to (`ReviewQueuePosition`). */
  reviewTurns: rowsOf<number>(),
  /**
   * A waiting status → its queue head's turn, `<status> <managerId>` → one past that manager's last
   * turn there: kept while no client leaves the status (`takeTurn`), dropped when one does.
   */
  reviewTurnMarks: rowsOf<number>(),
  /** By client id. */
  statusHistory: rowsOf<readonly StatusHistoryEntry[]>(),
  documents: rowsOf<DocumentRecord>(),
  /** Upload → the key of the one document made from it. */
  documentUploads: rowsOf<string>(),
  /** Upload → the claim of a command in flight (`DocumentIndex.claimUploads`), `expiresAt` in ms. */
  uploadClaims: rowsOf<{ readonly holder: string; readonly expiresAt: number }>(),
  /** By `idempotencyRecordId(scope, key)`. */
  idempotency: rowsOf<IdempotencyRecord>(),
  /** Owner → how many records it stores (live or expired, not yet purged). */
  idempotencyOwners: rowsOf<number>(),
  /** By event id, in position order. */
  events: rowsOf<EventRow>(),
  /** By entry id, in position order. */
  auditEntries: rowsOf<AuditRow>(),
  /** Client id → the id of its last entry, which the next one is chained to. */
  auditHeads: rowsOf<string>(),
  webhookEndpoints: rowsOf<StoredWebhookEndpoint>(),
  webhookDeliveries: rowsOf<StoredWebhookDelivery>(),
  /** Delivery id → until when (ms) a worker holds its next attempt. */
  webhookAttemptClaims: rowsOf<number>(),
  /** By job number, in the order enqueued. */
  webhookJobs: rowsOf<QueuedJob<WebhookJob>>(),
  /** Manager id → its last turn (ms) on the webhook queue. */
  webhookTurns: rowsOf<number>(),
  screeningJobs: rowsOf<QueuedJob<ScreeningJob>>(),
  /** By client id: the names its last screening looked at. */
  screenedNames: rowsOf<{ readonly clientId: string; readonly names: readonly IndexedScreeningName[] }>(),
  /** List version → how many monitoring jobs it was given (each version once). */
  screeningListVersions: rowsOf<number>(),
  /** By key digest (lower-case hex). */
  apiKeys: rowsOf<Principal>(),
  presetFees: rowsOf<{ readonly managerId: string; readonly fee: PresetFee }>(),
  /** The last number given to events, audit entries and jobs. */
  sequences: rowsOf<number>(),
});
type CommittedTables = ReturnType<typeof emptyTables>;
export type Tables = {
  readonly [N in keyof CommittedTables]: Table<Parameters<CommittedTables[N]['set']>[1]>;
};

export const idempotencyRecordId = (scope: string, key: string): string => JSON.stringify([scope, key]);

/** The next number of `sequence` (1, 2, 3 …), rolled back with the write that took it. */
export const nextNumber = (tables: Tables, sequence: 'events' | 'audit' | 'jobs'): number => {
  const next = (tables.sequences.get(sequence) ?? 0) + 1;
  tables.sequences.set(sequence, next);
  return next;
};

export const enqueueJob = <Job>(
  tables: Tables,
  queue: Table<QueuedJob<Job>>,
  job: Job,
  runAt: number,
  attempts = 0,
  turn = runAt,
): void => {
  const number = nextNumber(tables, 'jobs');
  queue.set(String(number), { number, runAt, job: frozenClone(job), attempts, turn });
};

/** How a store reaches the tables: the committed ones outside a transaction, its own inside one. */
export type TableAccess = {
  read<T>(query: (tables: Tables) => T): ResultAsync<T, StorageUnavailable>;
  write<T, E>(command: (tables: Tables) => Result<T, E>): ResultAsync<T, E | StorageUnavailable>;
};

const memoryUnavailable = storageUnavailable('memory');
/**
 * Runs a table operation, turning a throw into `StorageUnavailable`: a constraint a write checks
 * (a key already taken) throws, as a database raises, and so does anything unexpected.
 */
const attempt = <T>(operation: () => T): Result<T, StorageUnavailable> => {
  try {
    return ok(operation());
  } catch (cause) {
    return err(memoryUnavailable(cause));
  }
};
const answer = <T, E>(outcome: Result<T, E>): ResultAsync<T, E> => new ResultAsync(Promise.resolve(outcome));

/**
 * The transaction model of this test and demo adapter: plain, not fast. Writers run one at a time,
 * in call order (a promise-chain lock). A transaction, or a single write outside one, works on its
 * own `Table`s over the committed rows: it reads its own writes, and they are written in when it
 * ends Ok; when it ends Err, throws or passes its deadline, they are dropped. Readers outside a
 * transaction read the committed rows and never wait.
 *
 * As in PostgreSQL, a write that fails inside a transaction (an Err, or a throw) aborts it: every
 * later read and write of it is refused and it cannot commit, even if its work goes on to end Ok.
 *
 * Every transaction has a deadline (`timeoutMs`): then its work is abandoned, its later writes
 * refused, the lock passes on, and it resolves to `StorageUnavailable`. Without it, work waiting
 * for the lock its own transaction holds (a write through an outer store, a nested transaction),
 * or that never settles, would stop every later write. The timer is Node's own (`node:timers`),
 * so a test's fake timers neither fire nor hold it.
 */
export const createMemoryDatabase = (timeoutMs: number) => {
  const committed = emptyTables();
  /** Every table over the committed rows, its changes kept aside until `commit` writes them in. */
  const open = () => {
    const tables: Record<string, Table<unknown>> = {};
    for (const [name, rows] of Object.entries<Map<string, unknown>>(committed))
      tables[name] = new Table(rows);
    const commit = () => {
      for (const table of Object.values(tables)) table.commit();
    };
    return { tables: tables as unknown as Tables, commit };
  };
  /** The committed rows as a read sees them (never written through). */
  const committedTables = open().tables;
  let lock: Promise<unknown> = Promise.resolve();

  const transaction = <T, E>(
    work: (access: TableAccess) => ResultAsync<T, E>,
  ): ResultAsync<T, E | StorageUnavailable> => {
    const run = lock.then(async (): Promise<Result<T, E | StorageUnavailable>> => {
      const { tables, commit } = open();
      let state = 'open' as 'open' | 'aborted by a failed write' | 'ended';
      const refused = () => err(memoryUnavailable(new Error(`The transaction is ${state}`)));
      const access: TableAccess = {
        read: (query) => answer(state === 'open' ? attempt(() => query(tables)) : refused()),
        write: <W, F>(command: (tables: Tables) => Result<W, F>) => {
          if (state !== 'open') return answer<W, F | StorageUnavailable>(refused());
          const outcome = attempt(() => command(tables)).andThen(
            (written): Result<W, F | StorageUnavailable> => written,
          );
          if (outcome.isErr()) state = 'aborted by a failed write';
          return answer(outcome);
        },
      };
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        deadline = setTimeout(
          () => reject(new Error(`The transaction did not end within ${timeoutMs} ms`)),
          timeoutMs,
        );
        deadline.unref();
      });
      try {
        const outcome = await Promise.race([Promise.resolve().then(() => work(access)), expired]);
        // A transaction a failed write aborted does not commit, whatever its work answers.
        const ending = outcome.isOk() && state === 'aborted by a failed write' ? refused() : outcome;
        if (ending.isOk()) commit();
        return ending;
      } finally {
        state = 'ended';
        clearTimeout(deadline);
      }
    });
    // The next transaction waits for this one however it ends.
    lock = run.catch(() => undefined);
    return ResultAsync.fromPromise(run, memoryUnavailable).andThen((outcome) => outcome);
  };

  const committedAccess: TableAccess = {
    read: (query) => answer(attempt(() => query(committedTables))),
    // A write outside a transaction is a transaction of its own.
    write: (command) => transaction((access) => access.write(command)),
  };

  return { committed: committedTables, committedAccess, transaction, dump: () => committed };
};

export type MemoryDatabase = ReturnType<typeof createMemoryDatabase>;
