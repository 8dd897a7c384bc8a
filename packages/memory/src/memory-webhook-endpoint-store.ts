import {
  newestFirst,
  type StoredWebhookEndpoint,
  type WebhookEndpointStore,
} from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess, Tables } from './memory-database.js';

export const endpointsOf = (tables: Tables, managerId: string): StoredWebhookEndpoint[] =>
  [...tables.webhookEndpoints.values()]
    .filter((endpoint) => endpoint.managerId === managerId)
    .sort((a, b) => newestFirst(b, a));

/** The manager's endpoint; another manager's answers like an unknown one. */
const ownEndpoint = (tables: Tables, managerId: string, endpointId: string) => {
  const endpoint = tables.webhookEndpoints.get(endpointId);
  return endpoint?.managerId === managerId ? endpoint : undefined;
};

const findOwn = (access: TableAccess, managerId: string, endpointId: string) =>
  access.read((tables) => ownEndpoint(tables, managerId, endpointId) ?? null);

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
      if (ownEndpoint(tables, managerId, endpointId) === undefined) return ok(false);
      tables.webhookEndpoints.delete(endpointId);
      for (const delivery of [...tables.webhookDeliveries.values()]) {
        if (delivery.endpointId !== endpointId) continue;
        tables.webhookDeliveries.delete(delivery.id);
        tables.webhookAttemptClaims.delete(delivery.id);
      }
      return ok(true);
    }),
  replaceSecrets: (managerId, endpointId, expected, next) =>
    access.write((tables) => {
      const endpoint = ownEndpoint(tables, managerId, endpointId);
      if (endpoint === undefined || JSON.stringify(endpoint.secrets) !== JSON.stringify(expected))
        return ok(false);
      tables.webhookEndpoints.set(endpointId, frozenClone({ ...endpoint, secrets: next }));
      return ok(true);
    }),
  // One write: attempts of one endpoint ending at once are noted one after the other.
  noteAttemptResult: (managerId, endpointId, result, at, disableAfterFailingMs) =>
    access.write((tables) => {
      const endpoint = ownEndpoint(tables, managerId, endpointId);
      if (endpoint === undefined) return ok(null);
      const failingSince = result === 'succeeded' ? null : (endpoint.failingSince ?? at.toISOString());
      const disabling =
        endpoint.disabledAt !== null || failingSince === null
          ? null
          : result === 'gone'
            ? 'gone'
            : Date.parse(failingSince) <= at.getTime() - disableAfterFailingMs
              ? 'failing'
              : null;
      const disabled: Partial<StoredWebhookEndpoint> =
        disabling === null ? {} : { disabledAt: at.toISOString(), disabledReason: disabling };
      tables.webhookEndpoints.set(endpointId, frozenClone({ ...endpoint, failingSince, ...disabled }));
      return ok(disabling);
    }),
  enable: (managerId, endpointId) =>
    access.write((tables) => {
      const endpoint = ownEndpoint(tables, managerId, endpointId);
      if (endpoint === undefined) return ok(false);
      const enabled = { failingSince: null, disabledAt: null, disabledReason: null };
      tables.webhookEndpoints.set(endpointId, frozenClone({ ...endpoint, ...enabled }));
      return ok(true);
    }),
});
