import { reviewQueueStatuses } from '@onboarding-kit/core';
import {
  type ClientRepository,
  newestFirst,
  REDACTED_VALUE,
  type ReviewQueueFilter,
  type ReviewQueuePosition,
  type StaleClientState,
  type StoredClient,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess, Tables } from './memory-database.js';

const queueOrder = (a: ReviewQueuePosition, b: ReviewQueuePosition) => a.turn - b.turn || newestFirst(b, a);

/** The clients in `status` that pass `filter`, in queue order, each with its turn (`ReviewQueueRow`). */
const waitingClients = (tables: Tables, status: StoredClient['status'], filter: ReviewQueueFilter) =>
  [...tables.clients.values()]
    .filter(
      (client) =>
        client.status === status &&
        (filter.clientType === undefined || client.clientType === filter.clientType) &&
        (filter.screening === undefined || (client.screening?.status ?? 'NONE') === filter.screening) &&
        (filter.assigneeId === undefined || (client.assignee?.complianceId ?? null) === filter.assigneeId),
    )
    .map((client) => ({ ...client, client, turn: tables.reviewTurns.get(client.id) ?? 0 }))
    .sort(queueOrder);

/**
 * A client coming to wait in its status takes its turn there (`ReviewQueuePosition`): the queue
 * head's turn or one past its manager's last, whichever is later. Both are kept in
 * `reviewTurnMarks` (a create reads two rows, as PostgreSQL reads two index entries); a client
 * leaving the status drops its status's head and its manager's mark (`update`), found again by
 * one pass over the clients at the next arrival.
 */
const takeTurn = (tables: Tables, client: StoredClient) => {
  if (!(reviewQueueStatuses as readonly string[]).includes(client.status)) return;
  const marks = tables.reviewTurnMarks;
  const ownKey = `${client.status} ${client.managerId}`;
  let head = marks.get(client.status);
  let ownNext = marks.get(ownKey);
  if (head === undefined || ownNext === undefined) {
    head = Number.POSITIVE_INFINITY; // the lowest turn of the status; none waiting: 0
    ownNext = 0;
    for (const other of tables.clients.values()) {
      if (other.status !== client.status) continue;
      const otherTurn = tables.reviewTurns.get(other.id) ?? 0;
      head = Math.min(head, otherTurn);
      if (other.managerId === client.managerId) ownNext = Math.max(ownNext, otherTurn + 1);
    }
  }
  const turn = Math.max(head === Number.POSITIVE_INFINITY ? 0 : head, ownNext);
  tables.reviewTurns.set(client.id, turn);
  marks.set(client.status, Math.min(head, turn));
  marks.set(ownKey, turn + 1);
};

/** Writes `change` over the stored client; false when there is none (like an UPDATE of no row). */
const updateClient = (tables: Tables, clientId: string, change: Partial<StoredClient>) => {
  const current = tables.clients.get(clientId);
  if (current !== undefined) tables.clients.set(clientId, frozenClone({ ...current, ...change }));
  return ok(current !== undefined);
};

export const createMemoryClientRepository = (access: TableAccess): ClientRepository => ({
  findById: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  // Transactions run one at a time in memory, so reading is already locking.
  findForUpdate: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  list: ({ managerId, status, clientType, limit, after }) =>
    access.read((tables) =>
      [...tables.clients.values()]
        .filter(
          (client) =>
            client.managerId === managerId &&
            (status === undefined || client.status === status) &&
            (clientType === undefined || client.clientType === clientType) &&
            (after === undefined || newestFirst(client, after) > 0),
        )
        .sort(newestFirst)
        .slice(0, Math.max(0, limit)),
    ),
  statusHistory: (clientId) => access.read((tables) => [...(tables.statusHistory.get(clientId) ?? [])]),
  insert: (client, entry) =>
    access.write((tables) => {
      // The primary key of a database: the write throws, which fails it (StorageUnavailable).
      if (tables.clients.get(client.id) !== undefined)
        throw new Error(`A client with id ${client.id} already exists`);
      takeTurn(tables, client);
      tables.clients.set(client.id, frozenClone({ ...client, assignee: null }));
      tables.statusHistory.set(client.id, frozenClone([entry]));
      return ok(undefined);
    }),
  reviewQueue: ({ status, after, limit, ...filter }) =>
    access.read((tables) =>
      waitingClients(tables, status, filter)
        .filter((row) => after === undefined || queueOrder(row, after) > 0)
        .slice(0, Math.max(0, limit)),
    ),
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
    access.read(
      (tables) => waitingClients(tables, status, { ...filter, assigneeId: null })[0]?.client ?? null,
    ),
  updateAssignment: (clientId, assignee, updatedAt) =>
    access.write((tables) => updateClient(tables, clientId, { assignee, updatedAt })),
  updateScreening: (clientId, screening, updatedAt) =>
    access.write((tables) => updateClient(tables, clientId, { screening, updatedAt })),
  update: (client, expectedStatus, entry) =>
    access.write((tables) => {
      const current = tables.clients.get(client.id);
      if (current?.status !== expectedStatus) {
        const stale: StaleClientState = { type: 'StaleClientState', clientId: client.id, expectedStatus };
        return err(stale);
      }
      if (client.status !== expectedStatus) {
        tables.reviewTurnMarks.delete(current.status);
        tables.reviewTurnMarks.delete(`${current.status} ${current.managerId}`);
        takeTurn(tables, client);
      }
      // The assignment is written by updateAssignment only, as on PostgreSQL.
      tables.clients.set(client.id, frozenClone({ ...client, assignee: current.assignee }));
      const history = tables.statusHistory.get(client.id) ?? [];
      tables.statusHistory.set(client.id, frozenClone([...history, entry]));
      return ok(undefined);
    }),
  listDeletedBefore: (before, limit) =>
    access.read((tables) =>
      [...tables.clients.values()]
        .filter(
          (client) =>
            client.status === 'DELETED' &&
            client.redactedAt === null &&
            client.deletedAt !== null &&
            Date.parse(client.deletedAt) < Date.parse(before),
        )
        .sort(
          (a, b) => Date.parse(a.deletedAt ?? '') - Date.parse(b.deletedAt ?? '') || (a.id < b.id ? -1 : 1),
        )
        .slice(0, Math.max(0, limit)),
    ),
  listScreened: (after, limit) =>
    access.read((tables) =>
      [...tables.clients.values()]
        .filter(
          (client) =>
            (after === null || client.id > after) &&
            (client.screening?.status === 'CLEAR' || client.screening?.status === 'POSSIBLE_MATCH'),
        )
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, Math.max(0, limit)),
    ),
  redact: (client) =>
    access.write((tables) => {
      const current = tables.clients.get(client.id);
      // Like an UPDATE: a client that is not there stays absent.
      if (current === undefined) return ok(undefined);
      tables.clients.set(client.id, frozenClone({ ...client, assignee: current.assignee }));
      const history = (tables.statusHistory.get(client.id) ?? []).map((entry) =>
        entry.reason === null ? entry : { ...entry, reason: REDACTED_VALUE },
      );
      tables.statusHistory.set(client.id, frozenClone(history));
      return ok(undefined);
    }),
});
