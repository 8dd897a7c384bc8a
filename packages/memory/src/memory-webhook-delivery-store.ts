import type { StoredWebhookDelivery, WebhookDeliveryStore } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending, descending, type MemoryTables, type OrderKey } from './memory-tables.js';

/** Where a delivery sits in its endpoint's list (newest first: createdAt, then id, descending). */
const endpointKey = (
  delivery: { readonly createdAt: string; readonly id: string },
  endpointId: string,
): OrderKey => [endpointId, Date.parse(delivery.createdAt), delivery.id];
const eventKey = (delivery: StoredWebhookDelivery): OrderKey => [delivery.eventId, delivery.endpointId];

const removeDelivery = (tables: MemoryTables, delivery: StoredWebhookDelivery): void => {
  tables.webhookDeliveries.delete(delivery.id);
  tables.webhookAttemptClaims.delete(delivery.id);
  tables.deliveriesByEndpoint = tables.deliveriesByEndpoint.remove(
    endpointKey(delivery, delivery.endpointId),
  );
  tables.deliveriesByEvent = tables.deliveriesByEvent.remove(eventKey(delivery));
};

const putDelivery = (tables: MemoryTables, delivery: StoredWebhookDelivery): void => {
  const previous = tables.webhookDeliveries.get(delivery.id);
  if (previous !== undefined) removeDelivery(tables, previous);
  const stored = frozenClone(delivery);
  tables.webhookDeliveries.set(stored.id, stored);
  tables.deliveriesByEndpoint = tables.deliveriesByEndpoint.insert(
    endpointKey(stored, stored.endpointId),
    stored.id,
  );
  tables.deliveriesByEvent = tables.deliveriesByEvent.insert(eventKey(stored), stored.id);
};

/** Removes every delivery to an endpoint (the endpoint is being removed). */
export const removeDeliveriesOfEndpoint = (tables: MemoryTables, endpointId: string): void => {
  const ids = [...ascending(tables.deliveriesByEndpoint, endpointId)].map(([, id]) => id);
  for (const id of ids) {
    const delivery = tables.webhookDeliveries.get(id);
    if (delivery !== undefined) removeDelivery(tables, delivery);
  }
};

/** Webhook deliveries in the memory tables. */
export const createMemoryWebhookDeliveryStore = (access: TableAccess): WebhookDeliveryStore => ({
  insertMissing: (deliveries) =>
    access.write((tables) => {
      for (const delivery of deliveries) {
        // An endpoint removed meanwhile takes no delivery (PostgreSQL's foreign key does the same).
        if (
          tables.deliveriesByEvent.get(eventKey(delivery)) !== undefined ||
          tables.webhookEndpoints.get(delivery.endpointId) === undefined
        ) {
          continue;
        }
        putDelivery(tables, delivery);
      }
      return ok(undefined);
    }),
  find: (deliveryId) => access.read((tables) => tables.webhookDeliveries.get(deliveryId) ?? null),
  listForEvents: (eventIds) =>
    access.read((tables) =>
      [...new Set(eventIds)].flatMap((eventId) =>
        [...ascending(tables.deliveriesByEvent, eventId)].flatMap(([, id]) => {
          const delivery = tables.webhookDeliveries.get(id);
          return delivery === undefined ? [] : [delivery];
        }),
      ),
    ),
  listForEndpoint: ({ managerId, endpointId, status, limit, before }) =>
    access.read((tables) => {
      const page: StoredWebhookDelivery[] = [];
      // Another manager's endpoint answers like an unknown one, without reading its deliveries.
      if (tables.webhookEndpoints.get(endpointId)?.managerId !== managerId) return page;
      const size = Math.max(1, Math.floor(limit));
      const below = before === undefined ? undefined : endpointKey(before, endpointId);
      for (const [, id] of descending(tables.deliveriesByEndpoint, endpointId, below)) {
        if (page.length >= size) break;
        const delivery = tables.webhookDeliveries.get(id);
        if (
          delivery !== undefined &&
          delivery.managerId === managerId &&
          (status === undefined || delivery.status === status)
        ) {
          page.push(delivery);
        }
      }
      return page;
    }),
  update: (delivery, expectedAttempts) =>
    access.write((tables) => {
      const stored = tables.webhookDeliveries.get(delivery.id);
      if (stored === undefined || stored.attempts !== expectedAttempts) return ok(false);
      const claim = tables.webhookAttemptClaims.get(delivery.id);
      putDelivery(tables, delivery);
      if (claim !== undefined && delivery.attempts === expectedAttempts) {
        tables.webhookAttemptClaims.set(delivery.id, claim);
      }
      return ok(true);
    }),
  claimAttempt: (deliveryId, expectedAttempts, now, until) =>
    access.write((tables) => {
      const stored = tables.webhookDeliveries.get(deliveryId);
      const claimedUntil = tables.webhookAttemptClaims.get(deliveryId);
      if (
        stored === undefined ||
        stored.status !== 'pending' ||
        stored.attempts !== expectedAttempts ||
        (claimedUntil !== undefined && claimedUntil > now.getTime())
      ) {
        return ok(false);
      }
      tables.webhookAttemptClaims.set(deliveryId, until.getTime());
      return ok(true);
    }),
});
