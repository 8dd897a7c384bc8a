import {
  type ClientListQuery,
  type ClientRepository,
  newestFirst,
  type StaleClientState,
  type StoredClient,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

const matchesQuery = (client: StoredClient, query: ClientListQuery): boolean =>
  client.managerId === query.managerId &&
  (query.status === undefined || client.status === query.status) &&
  (query.clientType === undefined || client.clientType === query.clientType) &&
  (query.after === undefined || newestFirst(query.after, client) < 0);

/** Clients and their history over the memory tables; `access` decides committed state or a transaction. */
export const createMemoryClientRepository = (access: TableAccess): ClientRepository => ({
  findById: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  // Transactions run one at a time in memory, so reading is already locking.
  findForUpdate: (clientId) => access.read((tables) => tables.clients.get(clientId) ?? null),
  list: (query) =>
    access.read((tables) =>
      tables.clients
        .select((client) => matchesQuery(client, query))
        .sort(newestFirst)
        .slice(0, Math.max(0, query.limit)),
    ),
  statusHistory: (clientId) => access.read((tables) => [...(tables.statusHistory.get(clientId) ?? [])]),
  insert: (client, entry) =>
    access.write((tables) => {
      if (tables.clients.has(client.id)) {
        return err(storageUnavailable('memory')(new Error(`A client with id ${client.id} already exists`)));
      }
      tables.clients.set(client.id, client);
      tables.statusHistory.set(client.id, [entry]);
      return ok(undefined);
    }),
  update: (client, expectedStatus, entry) =>
    access.write((tables) => {
      const current = tables.clients.get(client.id);
      if (current?.status !== expectedStatus) {
        const stale: StaleClientState = { type: 'StaleClientState', clientId: client.id, expectedStatus };
        return err(stale);
      }
      tables.clients.set(client.id, client);
      tables.statusHistory.set(client.id, [...(tables.statusHistory.get(client.id) ?? []), entry]);
      return ok(undefined);
    }),
});
