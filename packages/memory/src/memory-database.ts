import {
  type AuditEntry,
  type DocumentRecord,
  type LoggedEvent,
  type RecordedOutcome,
  type StatusHistoryEntry,
  type StorageUnavailable,
  type StoredClient,
  type StoredWebhookDelivery,
  type StoredWebhookEndpoint,
  storageUnavailable,
  type WebhookJob,
} from '@onboarding-kit/core';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import { TransactionCopies } from './frozen-copy.js';
import { KeyGroups } from './key-groups.js';
import { createSerialQueue } from './serial-queue.js';
import { StagedMap } from './staged-map.js';

export type IdempotencyRecord = {
  readonly owner: string;
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly token: string;
  /** When the current holder claimed it (ms since epoch): the age both TTLs and purges judge. */
  readonly claimedAt: number;
  /** When the lock was taken or last renewed: the lock TTL counts from here. */
  readonly lockedAt: number;
  readonly outcome: RecordedOutcome | null;
};

/** The event log, by position (1, 2, 3 … in commit order: transactions run one at a time). */
export type EventRow = LoggedEvent & { readonly position: number };

/** An audit entry at its position (1, 2, 3 … in commit order, like events). */
export type AuditRow = { readonly position: number; readonly entry: AuditEntry };

/** A queued webhook job, due at `runAt` (ms since epoch); `sequence` orders jobs due together. */
export type WebhookJobRow = { readonly sequence: number; readonly job: WebhookJob; readonly runAt: number };

/** The data a transaction spans: what `TransactionalStores` write. */
export type MemoryTables = {
  readonly clients: StagedMap<string, StoredClient>;
  readonly statusHistory: StagedMap<string, readonly StatusHistoryEntry[]>;
  readonly documents: StagedMap<string, DocumentRecord>;
  /** Indexed by owner: a claim's quota check reads that owner's records only. */
  readonly idempotency: StagedMap<string, IdempotencyRecord, 'byOwner'>;
  /** Indexed by manager (the event feed) and by event id (webhook jobs name their events). */
  readonly events: StagedMap<number, EventRow, 'byManager' | 'byEventId'>;
  readonly webhookEndpoints: StagedMap<string, StoredWebhookEndpoint>;
  readonly webhookDeliveries: StagedMap<string, StoredWebhookDelivery>;
  readonly webhookJobs: StagedMap<number, WebhookJobRow>;
  /** The audit trail by position, indexed by client (a client's trail is read on its own) and entry id. */
  readonly auditEntries: StagedMap<number, AuditRow, 'byClient' | 'byId'>;
};

type CommittedTables = {
  [T in keyof MemoryTables]: MemoryTables[T] extends StagedMap<infer K, infer V> ? Map<K, V> : never;
};

/** How a store reaches the tables: committed state outside a transaction, a staging inside one. */
export type TableAccess = {
  read<T>(query: (tables: MemoryTables) => T): ResultAsync<T, StorageUnavailable>;
  write<T, E>(command: (tables: MemoryTables) => Result<T, E>): ResultAsync<T, E | StorageUnavailable>;
};

export type Staging = {
  readonly access: TableAccess;
  commit(): void;
  /** Refuses later writes: a write still running after its transaction ended must not land anywhere. */
  close(): void;
};

export const idempotencyRecordId = (scope: string, key: string): string => JSON.stringify([scope, key]);

const memoryUnavailable = storageUnavailable('memory');

/** Runs a synchronous table operation, turning an unexpected throw into `StorageUnavailable`. */
const attempt = <T>(operation: () => T): Result<T, StorageUnavailable> => {
  try {
    return ok(operation());
  } catch (cause) {
    return err(memoryUnavailable(cause));
  }
};

/**
 * The committed state and the lock every write takes. Transactions run one at a time and stage
 * their writes; a write outside a transaction is a transaction of its own. Reads outside a
 * transaction see committed state and never wait.
 */
export const createMemoryDatabase = () => {
  const committed: CommittedTables = {
    clients: new Map(),
    statusHistory: new Map(),
    documents: new Map(),
    idempotency: new Map(),
    events: new Map(),
    webhookEndpoints: new Map(),
    webhookDeliveries: new Map(),
    webhookJobs: new Map(),
    auditEntries: new Map(),
  };
  // Secondary indexes of the committed tables, kept up to date by every commit.
  const idempotencyIndexes = {
    byOwner: new KeyGroups<string, IdempotencyRecord>((record) => record.owner),
  };
  const eventIndexes = {
    byManager: new KeyGroups<number, EventRow>((row) => row.managerId),
    byEventId: new KeyGroups<number, EventRow>((row) => row.event.id),
  };
  const auditIndexes = {
    byClient: new KeyGroups<number, AuditRow>((row) => row.entry.clientId),
    byId: new KeyGroups<number, AuditRow>((row) => row.entry.id),
  };
  const queue = createSerialQueue();

  const stage = (): MemoryTables => {
    const copies = new TransactionCopies();
    return {
      clients: new StagedMap(committed.clients, copies),
      statusHistory: new StagedMap(committed.statusHistory, copies),
      documents: new StagedMap(committed.documents, copies),
      idempotency: new StagedMap(committed.idempotency, copies, idempotencyIndexes),
      events: new StagedMap(committed.events, copies, eventIndexes),
      webhookEndpoints: new StagedMap(committed.webhookEndpoints, copies),
      webhookDeliveries: new StagedMap(committed.webhookDeliveries, copies),
      webhookJobs: new StagedMap(committed.webhookJobs, copies),
      auditEntries: new StagedMap(committed.auditEntries, copies, auditIndexes),
    };
  };
  const commitAll = (tables: MemoryTables) => {
    tables.clients.commit();
    tables.statusHistory.commit();
    tables.documents.commit();
    tables.idempotency.commit();
    tables.events.commit();
    tables.webhookEndpoints.commit();
    tables.webhookDeliveries.commit();
    tables.webhookJobs.commit();
    tables.auditEntries.commit();
  };

  /**
   * Runs a task under the lock, after every task queued before it. No async context marks who holds
   * the lock (an `AsyncLocalStorage` would turn on Node's promise hooks for every promise of the
   * host's process): a transaction's work that waits for a write needing the lock ends at its
   * deadline instead (createMemoryUnitOfWork).
   */
  const serialized = <T>(task: () => Promise<T>): Promise<T> => queue.run(task);

  const committedAccess: TableAccess = {
    // Reads and staged writes are synchronous map operations: answered at once, in one promise.
    read: (query) => new ResultAsync(Promise.resolve(attempt(() => query(stage())))),
    write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
      ResultAsync.fromPromise(
        serialized(async () => {
          const tables = stage();
          const outcome = command(tables);
          if (outcome.isOk()) commitAll(tables);
          return outcome;
        }),
        memoryUnavailable,
      ).andThen((outcome): Result<T, E | StorageUnavailable> => outcome),
  };

  const openStaging = (): Staging => {
    const tables = stage();
    let open = true;
    const closedError = () => memoryUnavailable(new Error('The transaction has already ended'));
    return {
      access: {
        read: (query) =>
          new ResultAsync(Promise.resolve(open ? attempt(() => query(tables)) : err(closedError()))),
        write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
          new ResultAsync(
            Promise.resolve<Result<T, E | StorageUnavailable>>(
              open ? attempt(() => command(tables)).andThen((outcome) => outcome) : err(closedError()),
            ),
          ),
      },
      commit: () => commitAll(tables),
      close: () => {
        open = false;
      },
    };
  };

  return { committed, committedAccess, openStaging, serialized };
};

export type MemoryDatabase = ReturnType<typeof createMemoryDatabase>;
