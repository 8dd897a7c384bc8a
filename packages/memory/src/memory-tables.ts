import type { AuditEntry, StatusHistoryEntry } from '@onboarding-kit/core';
import type {
  AuditChainLink,
  DocumentRecord,
  IndexedScreeningName,
  LoggedEvent,
  RecordedOutcome,
  ScreeningJob,
  StoredClient,
  StoredWebhookDelivery,
  StoredWebhookEndpoint,
  WebhookJob,
} from '@onboarding-kit/core/adapter';
import createTree from 'functional-red-black-tree';

/** A persistent sorted map: `insert` and `remove` answer a new tree and leave the old one as it was. */
export type Tree<K, V> = createTree.Tree<K, V>;

/** The key of an ordered index: compared element by element, a shorter key first. */
export type OrderKey = readonly (string | number)[];

export const compareOrderKeys = (a: OrderKey, b: OrderKey): number => {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a[index] as string | number;
    const y = b[index] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
};

/** A screening job waiting in memory, and how many times it failed already. */
export type QueuedScreeningJob = { readonly job: ScreeningJob; readonly attempts: number };

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

export const idempotencyRecordId = (scope: string, key: string): string => JSON.stringify([scope, key]);

/** An event of the log with its position (1, 2, 3 … in commit order: writers run one at a time). */
export type EventRow = LoggedEvent & { readonly position: number };

/** What a read needs of a table of rows: the committed Map and a transaction's `RowChanges` alike. */
export type Rows<V> = { get(key: string): V | undefined };

/**
 * A transaction's writes to one table of rows, over the committed Map it reads through: its own
 * writes first, then the base.
 */
export class RowChanges<V> implements Rows<V> {
  readonly #base: Rows<V>;
  // Undefined: deleted. Made at the first write: most writes touch a few tables.
  #changes: Map<string, V | undefined> | undefined;

  constructor(base: Rows<V>) {
    this.#base = base;
  }

  get(key: string): V | undefined {
    return this.#changes?.has(key) ? this.#changes.get(key) : this.#base.get(key);
  }

  set(key: string, value: V): void {
    this.#changes ??= new Map();
    this.#changes.set(key, value);
  }

  delete(key: string): void {
    this.#changes ??= new Map();
    this.#changes.set(key, undefined);
  }

  /** Writes these changes into `target`: the base they were made over. */
  applyTo(target: { set(key: string, value: V): unknown; delete(key: string): unknown }): void {
    for (const [key, value] of this.#changes ?? []) {
      if (value === undefined) target.delete(key);
      else target.set(key, value);
    }
  }
}

/**
 * An audit entry with its position in the log (1, 2, 3 … in the order appended, across all trails)
 * and its link in its client's hash chain.
 */
export type AuditRow = {
  readonly position: number;
  readonly entry: AuditEntry;
  readonly link: AuditChainLink;
};

/** A command's claim on one upload (`DocumentIndex.claimUploads`), keyed by the upload's name. */
export type UploadClaimRow = {
  readonly holder: string;
  /** ms since epoch. */
  readonly expiresAt: number;
};

/** The tables of rows, by id; their rows are looked up by key only. */
type RowTypes = {
  clients: StoredClient;
  statusHistory: readonly StatusHistoryEntry[];
  documents: DocumentRecord;
  /** The upload each document was made from → the document's key: one document per upload. */
  documentUploads: string;
  /**
   * Claims of commands in flight: a claim goes when its holder releases it or a document is made
   * from its upload, so only claims of commands that never ended stay until taken over.
   */
  uploadClaims: UploadClaimRow;
  /** By `idempotencyRecordId(scope, key)`. */
  idempotency: IdempotencyRecord;
  /** Event id → its key in `events`. */
  eventKeys: OrderKey;
  webhookEndpoints: StoredWebhookEndpoint;
  webhookDeliveries: StoredWebhookDelivery;
  /** Delivery id → until when (ms since epoch) a worker holds its next attempt. */
  webhookAttemptClaims: number;
  /** By entry id. */
  auditEntries: AuditRow;
  /** A client's screened names, by client id (the monitoring index's rows). */
  screenedNames: readonly IndexedScreeningName[];
  /** The list versions whose monitoring was enqueued, by version (each once), and how many jobs. */
  screeningListVersions: { readonly batches: number };
};
const rowTables = [
  'clients',
  'statusHistory',
  'documents',
  'documentUploads',
  'uploadClaims',
  'idempotency',
  'eventKeys',
  'webhookEndpoints',
  'webhookDeliveries',
  'webhookAttemptClaims',
  'auditEntries',
  'screenedNames',
  'screeningListVersions',
] as const satisfies readonly (keyof RowTypes)[];

/**
 * The ordered tables, persistent trees. The `…By…` ones are indexes: their keys start with the
 * group they answer for (a manager, an owner, an endpoint, an event) and sort the group the way it
 * is listed, so a page reads its own rows only.
 */
type OrderedTables = {
  /** [managerId, createdAt ms, clientId]: a manager's clients, oldest first. */
  clientsByManager: Tree<OrderKey, string>;
  /** [owner, claimedAt, recordId]: an owner's records, oldest claim first (the quota reads it). */
  idempotencyByOwner: Tree<OrderKey, string>;
  /** [claimedAt, recordId]: oldest claim first (the purge reads it). */
  idempotencyByAge: Tree<OrderKey, string>;
  /** [managerId, position]: a manager's feed, in the order it was appended. */
  events: Tree<OrderKey, EventRow>;
  /** [managerId, createdAt ms, endpointId]. */
  endpointsByManager: Tree<OrderKey, string>;
  /** [endpointId, createdAt ms, deliveryId]: an endpoint's deliveries, oldest first. */
  deliveriesByEndpoint: Tree<OrderKey, string>;
  /** [eventId, endpointId] → deliveryId: at most one delivery per pair. */
  deliveriesByEvent: Tree<OrderKey, string>;
  /** [runAt ms, sequence]: soonest due first. */
  webhookJobs: Tree<OrderKey, WebhookJob>;
  /** [runAt ms, sequence]: soonest due first; `attempts` made so far (the back-off grows with it). */
  screeningJobs: Tree<OrderKey, QueuedScreeningJob>;
  /** [clientId, position] → entry id: a client's audit trail, in the order it was appended. */
  auditByClient: Tree<OrderKey, string>;
  /** [key, clientId, field]: the screened names under each key (`screeningNameKeys`). */
  screenedNameKeys: Tree<OrderKey, true>;
};

/** The committed state: Maps of rows, and the ordered tables. */
export type CommittedTables = { readonly [T in keyof RowTypes]: Map<string, RowTypes[T]> } & OrderedTables;

/** What a write works on: its changes to the rows, and its own versions of the ordered tables. */
export type MemoryTables = { readonly [T in keyof RowTypes]: RowChanges<RowTypes[T]> } & OrderedTables;

/** What a read sees: the committed state, or a transaction's. */
export type ReadableTables = Readonly<{ [T in keyof RowTypes]: Rows<RowTypes[T]> } & OrderedTables>;

export const emptyTables = (): CommittedTables => ({
  clients: new Map(),
  statusHistory: new Map(),
  documents: new Map(),
  documentUploads: new Map(),
  uploadClaims: new Map(),
  idempotency: new Map(),
  eventKeys: new Map(),
  webhookEndpoints: new Map(),
  webhookDeliveries: new Map(),
  webhookAttemptClaims: new Map(),
  auditEntries: new Map(),
  screenedNames: new Map(),
  screeningListVersions: new Map(),
  clientsByManager: createTree(compareOrderKeys),
  idempotencyByOwner: createTree(compareOrderKeys),
  idempotencyByAge: createTree(compareOrderKeys),
  events: createTree(compareOrderKeys),
  endpointsByManager: createTree(compareOrderKeys),
  deliveriesByEndpoint: createTree(compareOrderKeys),
  deliveriesByEvent: createTree(compareOrderKeys),
  webhookJobs: createTree(compareOrderKeys),
  screeningJobs: createTree(compareOrderKeys),
  auditByClient: createTree(compareOrderKeys),
  screenedNameKeys: createTree(compareOrderKeys),
});

/** A write's view of the committed state: no changes yet, the ordered tables as committed. */
export const changesOver = (base: CommittedTables): MemoryTables => {
  const tables: Record<string, unknown> = { ...base };
  for (const name of rowTables) tables[name] = new RowChanges(base[name] as Rows<unknown>);
  return tables as MemoryTables;
};

/** Writes what `changes` did into the committed state it was made over (`changesOver`). */
export const applyChanges = (changes: MemoryTables, base: CommittedTables): void => {
  for (const name of rowTables) {
    (changes[name] as RowChanges<unknown>).applyTo(base[name] as Map<string, unknown>);
  }
  const ordered: OrderedTables = base;
  Object.assign(ordered, {
    clientsByManager: changes.clientsByManager,
    idempotencyByOwner: changes.idempotencyByOwner,
    idempotencyByAge: changes.idempotencyByAge,
    events: changes.events,
    endpointsByManager: changes.endpointsByManager,
    deliveriesByEndpoint: changes.deliveriesByEndpoint,
    deliveriesByEvent: changes.deliveriesByEvent,
    webhookJobs: changes.webhookJobs,
    screeningJobs: changes.screeningJobs,
    auditByClient: changes.auditByClient,
    screenedNameKeys: changes.screenedNameKeys,
  } satisfies OrderedTables);
};

/** Every entry of `tree`, in key order. */
export function* entries<K, V>(tree: Tree<K, V>): Generator<readonly [K, V]> {
  for (const at = tree.begin; at.valid; at.next()) yield [at.key as K, at.value as V];
}

/** The entries of an index whose key starts with `group`, ascending from `from` (inclusive). */
export function* ascending<V>(
  index: Tree<OrderKey, V>,
  group: string,
  from: OrderKey = [group],
): Generator<readonly [OrderKey, V]> {
  for (const at = index.ge(from); at.valid && at.key?.[0] === group; at.next()) {
    yield [at.key, at.value as V];
  }
}

/**
 * The entries of an index whose key starts with `group` and goes on with a number, descending
 * from just below `below` (default: the group's last entry).
 */
export function* descending<V>(
  index: Tree<OrderKey, V>,
  group: string,
  below: OrderKey = [group, Number.POSITIVE_INFINITY],
): Generator<readonly [OrderKey, V]> {
  for (const at = index.lt(below); at.valid && at.key?.[0] === group; at.prev()) {
    yield [at.key, at.value as V];
  }
}
