import {
  type ClientListQuery,
  type ClientRepository,
  REDACTED_VALUE,
  type ReviewQueueFilter,
  type StaleClientState,
  type StoredClient,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import {
  descending,
  entries,
  type MemoryTables,
  type OrderKey,
  type ReadableTables,
} from './memory-tables.js';

/** Where a client sits in its manager's list: by `createdAt` (as an instant), then id. */
const listKey = (
  client: { readonly createdAt: string; readonly id: string },
  managerId: string,
): OrderKey => [managerId, Date.parse(client.createdAt), client.id];

/** Newest first from the cursor on, reading the manager's clients only until the page is full. */
const listPage = (tables: ReadableTables, query: ClientListQuery): StoredClient[] => {
  const page: StoredClient[] = [];
  const limit = Math.max(0, query.limit);
  const below = query.after === undefined ? undefined : listKey(query.after, query.managerId);
  for (const [, clientId] of descending(tables.clientsByManager, query.managerId, below)) {
    if (page.length >= limit) break;
    const client = tables.clients.get(clientId);
    if (
      client !== undefined &&
      (query.status === undefined || client.status === query.status) &&
      (query.clientType === undefined || client.clientType === query.clientType)
    ) {
      page.push(client);
    }
  }
  return page;
};

/** Whether a waiting client passes the queue's filters. */
const inReviewQueue = (client: StoredClient, filter: ReviewQueueFilter): boolean =>
  (filter.clientType === undefined || client.clientType === filter.clientType) &&
  (filter.screening === undefined || (client.screening?.status ?? 'NONE') === filter.screening) &&
  (filter.assigneeId === undefined || (client.assignee?.complianceId ?? null) === filter.assigneeId);

/** Oldest first by `createdAt` (as an instant), then id. */
const byCreation = (a: StoredClient, b: StoredClient): number =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The clients in `status` that pass `filter`, oldest first: a scan of every client (the memory
 * adapter serves tests and the demo, where a queue holds hundreds, not millions).
 */
const waitingClients = (
  tables: ReadableTables,
  status: StoredClient['status'],
  filter: ReviewQueueFilter,
): StoredClient[] => {
  const waiting: StoredClient[] = [];
  for (const [, clientId] of entries(tables.clientsByManager)) {
    const client = tables.clients.get(clientId);
    if (client?.status === status && inReviewQueue(client, filter)) waiting.push(client);
  }
  return waiting.sort(byCreation);
};

/** Stores `client`, moving its place in the list index if its manager or creation time changed. */
const putClient = (tables: MemoryTables, client: StoredClient, previous: StoredClient | undefined) => {
  const stored = frozenClone(client);
  tables.clients.set(stored.id, stored);
  if (previous !== undefined) {
    tables.clientsByManager = tables.clientsByManager.remove(listKey(previous, previous.managerId));
  }
  tables.clientsByManager = tables.clientsByManager.insert(listKey(stored, stored.managerId), stored.id);
};

/** Clients and their history over the memory tables; `access` decides committed state or a transaction. */
export const createMemoryClientRepository = (access: TableAccess): ClientRepository => ({
  findById: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  // Transactions run one at a time in memory, so reading is already locking.
  findForUpdate: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  list: (query) => access.read((tables) => listPage(tables, query)),
  statusHistory: (clientId) => access.read((tables) => [...(tables.statusHistory.get(clientId) ?? [])]),
  insert: (client, entry) =>
    access.write((tables) => {
      if (tables.clients.get(client.id) !== undefined) {
        return err(storageUnavailable('memory')(new Error(`A client with id ${client.id} already exists`)));
      }
      putClient(tables, { ...client, assignee: null }, undefined);
      tables.statusHistory.set(client.id, frozenClone([entry]));
      return ok(undefined);
    }),
  reviewQueue: (query) =>
    access.read((tables) => {
      const after = query.after;
      const waiting = waitingClients(tables, query.status, query);
      const from =
        after === undefined
          ? 0
          : waiting.findIndex(
              (client) => byCreation(client, { ...client, createdAt: after.createdAt, id: after.id }) > 0,
            );
      return from < 0 ? [] : waiting.slice(from, from + Math.max(0, query.limit));
    }),
  countReviewQueue: (filter) =>
    access.read((tables) => ({
      ONBOARDING_UNDER_REVIEW: waitingClients(tables, 'ONBOARDING_UNDER_REVIEW', filter).length,
      WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: waitingClients(
        tables,
        'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        filter,
      ).length,
    })),
  // Transactions run one at a time in memory: the first unassigned client is nobody else's.
  lockNextUnassigned: (status, filter) =>
    access.read((tables) => waitingClients(tables, status, { ...filter, assigneeId: null })[0] ?? null),
  updateAssignment: (clientId, assignee) =>
    access.write((tables) => {
      const current = tables.clients.get(clientId);
      if (current === undefined) return ok(false);
      putClient(tables, { ...current, assignee }, current);
      return ok(true);
    }),
  updateScreening: (clientId, screening) =>
    access.write((tables) => {
      const current = tables.clients.get(clientId);
      if (current === undefined) return ok(false);
      putClient(tables, { ...current, screening }, current);
      return ok(true);
    }),
  update: (client, expectedStatus, entry) =>
    access.write((tables) => {
      const current = tables.clients.get(client.id);
      if (current?.status !== expectedStatus) {
        const stale: StaleClientState = { type: 'StaleClientState', clientId: client.id, expectedStatus };
        return err(stale);
      }
      // The assignment is written by updateAssignment only, as on PostgreSQL.
      putClient(tables, { ...client, assignee: current.assignee }, current);
      const history = [...(tables.statusHistory.get(client.id) ?? []), frozenClone(entry)];
      tables.statusHistory.set(client.id, Object.freeze(history));
      return ok(undefined);
    }),
  listDeletedBefore: (before, limit) =>
    access.read((tables) => {
      const until = Date.parse(before);
      const deleted: StoredClient[] = [];
      for (const [, clientId] of entries(tables.clientsByManager)) {
        const client = tables.clients.get(clientId);
        if (
          client?.status === 'DELETED' &&
          client.redactedAt === null &&
          client.deletedAt !== null &&
          Date.parse(client.deletedAt) < until
        ) {
          deleted.push(client);
        }
      }
      return deleted
        .sort(
          (a, b) => Date.parse(a.deletedAt ?? '') - Date.parse(b.deletedAt ?? '') || (a.id < b.id ? -1 : 1),
        )
        .slice(0, Math.max(0, limit));
    }),
  listScreened: (after, limit) =>
    access.read((tables) => {
      const screened: StoredClient[] = [];
      for (const [, clientId] of entries(tables.clientsByManager)) {
        const client = tables.clients.get(clientId);
        const status = client?.screening?.status;
        if (
          client !== undefined &&
          (after === null || client.id > after) &&
          (status === 'CLEAR' || status === 'POSSIBLE_MATCH')
        ) {
          screened.push(client);
        }
      }
      return screened.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, Math.max(0, limit));
    }),
  redact: (client) =>
    access.write((tables) => {
      const current = tables.clients.get(client.id);
      // Like an UPDATE: a client that is not there stays absent.
      if (current === undefined) return ok(undefined);
      putClient(tables, { ...client, assignee: current.assignee }, current);
      const history = (tables.statusHistory.get(client.id) ?? []).map((entry) =>
        entry.reason === null ? entry : { ...entry, reason: REDACTED_VALUE },
      );
      tables.statusHistory.set(client.id, frozenClone(history));
      return ok(undefined);
    }),
});
