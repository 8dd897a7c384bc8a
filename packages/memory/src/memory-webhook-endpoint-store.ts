import type { StoredWebhookEndpoint, WebhookEndpointStore } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending, type MemoryTables, type OrderKey, type ReadableTables } from './memory-tables.js';
import { removeDeliveriesOfEndpoint } from './memory-webhook-delivery-store.js';

const managerKey = (endpoint: StoredWebhookEndpoint): OrderKey => [
  endpoint.managerId,
  Date.parse(endpoint.createdAt),
  endpoint.id,
];

/** Stores `endpoint`, replacing one of the same id and its place in the manager index. */
const putEndpoint = (tables: MemoryTables, endpoint: StoredWebhookEndpoint): void => {
  const previous = tables.webhookEndpoints.get(endpoint.id);
  if (previous !== undefined) {
    tables.endpointsByManager = tables.endpointsByManager.remove(managerKey(previous));
  }
  const stored = frozenClone(endpoint);
  tables.webhookEndpoints.set(stored.id, stored);
  tables.endpointsByManager = tables.endpointsByManager.insert(managerKey(stored), stored.id);
};

/** A manager's endpoints, oldest first. */
const endpointsOf = (tables: ReadableTables, managerId: string): StoredWebhookEndpoint[] =>
  [...ascending(tables.endpointsByManager, managerId)].flatMap(([, id]) => {
    const endpoint = tables.webhookEndpoints.get(id);
    return endpoint === undefined ? [] : [endpoint];
  });

/** Whether the manager has at least one endpoint (the job queue asks it on every event). */
export const hasWebhookEndpoint = (tables: ReadableTables, managerId: string): boolean =>
  !ascending(tables.endpointsByManager, managerId).next().done;

const findOwn = (access: TableAccess, managerId: string, endpointId: string) =>
  access.read((tables) => {
    const endpoint = tables.webhookEndpoints.get(endpointId);
    return endpoint?.managerId === managerId ? endpoint : null;
  });

/** Webhook endpoints in the memory tables; removing one removes its deliveries and their jobs. */
export const createMemoryWebhookEndpointStore = (access: TableAccess): WebhookEndpointStore => ({
  // One write: the count and the insert cannot interleave with another manager's write.
  insertWithinLimit: (endpoint, maxPerManager) =>
    access.write((tables) => {
      let held = 0;
      for (const _endpoint of ascending(tables.endpointsByManager, endpoint.managerId)) {
        if (held >= maxPerManager) break;
        held += 1;
      }
      if (held >= maxPerManager) return ok(false);
      putEndpoint(tables, endpoint);
      return ok(true);
    }),
  listForManager: (managerId) => access.read((tables) => endpointsOf(tables, managerId)),
  find: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  // Memory transactions run one at a time: a read inside one is already held until it ends.
  findForUpdate: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  remove: (managerId, endpointId) =>
    access.write((tables) => {
      const endpoint = tables.webhookEndpoints.get(endpointId);
      if (endpoint?.managerId !== managerId) return ok(false);
      tables.webhookEndpoints.delete(endpointId);
      tables.endpointsByManager = tables.endpointsByManager.remove(managerKey(endpoint));
      removeDeliveriesOfEndpoint(tables, endpointId);
      return ok(true);
    }),
  replaceSecrets: (managerId, endpointId, expected, next) =>
    access.write((tables) => {
      const endpoint = tables.webhookEndpoints.get(endpointId);
      if (endpoint?.managerId !== managerId) return ok(false);
      if (JSON.stringify(endpoint.secrets) !== JSON.stringify(expected)) return ok(false);
      tables.webhookEndpoints.set(endpointId, frozenClone({ ...endpoint, secrets: next }));
      return ok(true);
    }),
  // One write: attempts of one endpoint ending at once are noted one after the other.
  noteAttemptResult: (managerId, endpointId, result, at, disableAfterFailingMs) =>
    access.write((tables) => {
      const endpoint = tables.webhookEndpoints.get(endpointId);
      if (endpoint?.managerId !== managerId) return ok(null);
      const failingSince = result === 'succeeded' ? null : (endpoint.failingSince ?? at.toISOString());
      const disabling =
        endpoint.disabledAt !== null || failingSince === null
          ? null
          : result === 'gone'
            ? 'gone'
            : Date.parse(failingSince) <= at.getTime() - disableAfterFailingMs
              ? 'failing'
              : null;
      tables.webhookEndpoints.set(
        endpointId,
        frozenClone({
          ...endpoint,
          failingSince,
          ...(disabling === null ? {} : { disabledAt: at.toISOString(), disabledReason: disabling }),
        }),
      );
      return ok(disabling);
    }),
  enable: (managerId, endpointId) =>
    access.write((tables) => {
      const endpoint = tables.webhookEndpoints.get(endpointId);
      if (endpoint?.managerId !== managerId) return ok(false);
      tables.webhookEndpoints.set(
        endpointId,
        frozenClone({ ...endpoint, failingSince: null, disabledAt: null, disabledReason: null }),
      );
      return ok(true);
    }),
});
