import type {
  DocumentRecord,
  LoggedEvent,
  RecordedOutcome,
  StatusHistoryEntry,
  StoredClient,
  StoredWebhookDelivery,
  StoredWebhookEndpoint,
  WebhookJob,
} from '@onboarding-kit/core';
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

/**
 * Every table of the memory adapters, each a persistent tree. The `…By…` trees are indexes: their
 * keys start with the group they answer for (a manager, an owner, an endpoint, an event) and sort
 * the group the way it is listed, so a page reads its own rows only.
 */
export type MemoryTables = {
  clients: Tree<string, StoredClient>;
  /** [managerId, createdAt ms, clientId]: a manager's clients, oldest first. */
  clientsByManager: Tree<OrderKey, string>;
  statusHistory: Tree<string, readonly StatusHistoryEntry[]>;
  documents: Tree<string, DocumentRecord>;
  /** By `idempotencyRecordId(scope, key)`. */
  idempotency: Tree<string, IdempotencyRecord>;
  /** [owner, claimedAt, recordId]: an owner's records, oldest claim first (the quota reads it). */
  idempotencyByOwner: Tree<OrderKey, string>;
  /** [managerId, position]: a manager's feed, in the order it was appended. */
  events: Tree<OrderKey, EventRow>;
  /** Event id → its key in `events`. */
  eventKeys: Tree<string, OrderKey>;
  webhookEndpoints: Tree<string, StoredWebhookEndpoint>;
  /** [managerId, createdAt ms, endpointId]. */
  endpointsByManager: Tree<OrderKey, string>;
  webhookDeliveries: Tree<string, StoredWebhookDelivery>;
  /** [endpointId, createdAt ms, deliveryId]: an endpoint's deliveries, oldest first. */
  deliveriesByEndpoint: Tree<OrderKey, string>;
  /** [eventId, endpointId] → deliveryId: at most one delivery per pair. */
  deliveriesByEvent: Tree<OrderKey, string>;
  /** [runAt ms, sequence]: soonest due first. */
  webhookJobs: Tree<OrderKey, WebhookJob>;
};

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const emptyTables = (): MemoryTables => ({
  clients: createTree(byString),
  clientsByManager: createTree(compareOrderKeys),
  statusHistory: createTree(byString),
  documents: createTree(byString),
  idempotency: createTree(byString),
  idempotencyByOwner: createTree(compareOrderKeys),
  events: createTree(compareOrderKeys),
  eventKeys: createTree(byString),
  webhookEndpoints: createTree(byString),
  endpointsByManager: createTree(compareOrderKeys),
  webhookDeliveries: createTree(byString),
  deliveriesByEndpoint: createTree(compareOrderKeys),
  deliveriesByEvent: createTree(compareOrderKeys),
  webhookJobs: createTree(compareOrderKeys),
});

/** `tree` with `key` set to `value`, replacing the value it had. */
export const put = <K, V>(tree: Tree<K, V>, key: K, value: V): Tree<K, V> => {
  const found = tree.find(key);
  return found.valid ? found.update(value) : tree.insert(key, value);
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
