import {
  newestFirst,
  type StoredWebhookEndpoint,
  type WebhookEndpointStore,
} from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess, Tables } from './memory-database.js';

/** A manager's endpoints, oldest first. */
export const endpointsOf = (tables: Tables, managerId: string): StoredWebhookEndpoint[] =>
  [...tables.webhookEndpoints.values()]
    .filter((endpoint) => endpoint.managerId === managerId)
    .sort((a, b) => newestFirst(b, a));

/** Writes `change` over the manager's endpoint; false when the manager has no such endpoint. */
const updateOwn = (
  tables: Tables,
  managerId: string,
  endpointId: string,
  change: (endpoint: StoredWebhookEndpoint) => Partial<StoredWebhookEndpoint> | null,
): boolean => {
  const endpoint = tables.webhookEndpoints.get(endpointId);
  const changed = endpoint?.managerId === managerId ? change(endpoint) : null;
  if (endpoint === undefined || changed === null) return false;
  tables.webhookEndpoints.set(endpointId, frozenClone({ ...endpoint, ...changed }));
  return true;
};

const findOwn = (access: TableAccess, managerId: string, endpointId: string) =>
  access.read((tables) => {
    const endpoint = tables.webhookEndpoints.get(endpointId);
    return endpoint?.managerId === managerId ? endpoint : null;
  });

/** Webhook endpoints in the memory tables; removing one removes its deliveries. */
export const createMemoryWebhookEndpointStore = (access: TableAccess): WebhookEndpointStore => ({
  // One write: the count and the insert cannot interleave with another manager's write.
  insertWithinLimit: (endpoint, maxPerManager) =>
    access.write((tables) => {
      if (endpointsOf(tables, endpoint.managerId).length >= maxPerManager) return ok(false);
      tables.webhookEndpoints.set(endpoint.id, frozenClone(endpoint));
      return ok(true);
    }),
  listForManager: (managerId) => access.read((tables) => endpointsOf(tables, managerId)),
  find: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  // Memory transactions run one at a time: a read inside one is already held until it ends.
  findForUpdate: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  remove: (managerId, endpointId) =>
    access.write((tables) => {
      if (tables.webhookEndpoints.get(endpointId)?.managerId !== managerId) return ok(false);
      tables.webhookEndpoints.delete(endpointId);
      for (const delivery of [...tables.webhookDeliveries.values()]) {
        if (delivery.endpointId !== endpointId) continue;
        tables.webhookDeliveries.delete(delivery.id);
        tables.webhookAttemptClaims.delete(delivery.id);
      }
      return ok(true);
    }),
  replaceSecrets: (managerId, endpointId, expected, next) =>
    access.write((tables) =>
      ok(
        updateOwn(tables, managerId, endpointId, (endpoint) =>
          JSON.stringify(endpoint.secrets) === JSON.stringify(expected) ? { secrets: next } : null,
        ),
      ),
    ),
  // One write: attempts of one endpoint ending at once are noted one after the other.
  noteAttemptResult: (managerId, endpointId, result, at, disableAfterFailingMs) =>
    access.write((tables) => {
      let disabling: 'gone' | 'failing' | null = null;
      const noted = updateOwn(tables, managerId, endpointId, (endpoint) => {
        const failingSince = result === 'succeeded' ? null : (endpoint.failingSince ?? at.toISOString());
        if (endpoint.disabledAt === null && failingSince !== null) {
          if (result === 'gone') disabling = 'gone';
          else if (Date.parse(failingSince) <= at.getTime() - disableAfterFailingMs) disabling = 'failing';
        }
        return {
          failingSince,
          ...(disabling === null ? {} : { disabledAt: at.toISOString(), disabledReason: disabling }),
        };
      });
      return ok(noted ? disabling : null);
    }),
  enable: (managerId, endpointId) =>
    access.write((tables) =>
      ok(
        updateOwn(tables, managerId, endpointId, () => ({
          failingSince: null,
          disabledAt: null,
          disabledReason: null,
        })),
      ),
    ),
});
