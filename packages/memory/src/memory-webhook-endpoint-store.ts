import type { WebhookEndpointStore } from '@onboarding-kit/core';
import { ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

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
      const held = tables.webhookEndpoints.count(
        ({ managerId }) => managerId === endpoint.managerId,
        maxPerManager,
      );
      if (held >= maxPerManager) return ok(false);
      tables.webhookEndpoints.set(endpoint.id, endpoint);
      return ok(true);
    }),
  listForManager: (managerId) =>
    access.read((tables) =>
      tables.webhookEndpoints
        .select((endpoint) => endpoint.managerId === managerId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
    ),
  find: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  // Memory transactions run one at a time: a read inside one is already held until it ends.
  findForUpdate: (managerId, endpointId) => findOwn(access, managerId, endpointId),
  remove: (managerId, endpointId) =>
    access.write((tables) => {
      if (tables.webhookEndpoints.get(endpointId)?.managerId !== managerId) return ok(false);
      tables.webhookEndpoints.delete(endpointId);
      for (const id of tables.webhookDeliveries.selectKeys((delivery) => delivery.endpointId === endpointId))
        tables.webhookDeliveries.delete(id);
      return ok(true);
    }),
  replaceSecrets: (managerId, endpointId, expected, next) =>
    access.write((tables) => {
      const endpoint = tables.webhookEndpoints.get(endpointId);
      if (endpoint?.managerId !== managerId) return ok(false);
      if (JSON.stringify(endpoint.secrets) !== JSON.stringify(expected)) return ok(false);
      tables.webhookEndpoints.set(endpointId, { ...endpoint, secrets: next });
      return ok(true);
    }),
});
