import type { StoredWebhookDelivery, WebhookDeliveryStore } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

/** Newest first: createdAt, then id, descending. */
const newestDeliveryFirst = (a: StoredWebhookDelivery, b: StoredWebhookDelivery): number =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

/** Webhook deliveries in the memory tables. */
export const createMemoryWebhookDeliveryStore = (access: TableAccess): WebhookDeliveryStore => ({
  insertMissing: (deliveries) =>
    access.write((tables) => {
      const pair = ({ endpointId, eventId }: StoredWebhookDelivery) => `${endpointId} ${eventId}`;
      const wanted = new Set(deliveries.map(({ eventId }) => eventId));
      const existing = new Set(
        tables.webhookDeliveries.select((stored) => wanted.has(stored.eventId)).map(pair),
      );
      for (const delivery of deliveries) {
        // An endpoint removed meanwhile takes no delivery (PostgreSQL's foreign key does the same).
        if (existing.has(pair(delivery)) || !tables.webhookEndpoints.has(delivery.endpointId)) continue;
        existing.add(pair(delivery));
        tables.webhookDeliveries.set(delivery.id, delivery);
      }
      return ok(undefined);
    }),
  find: (deliveryId) => access.read((tables) => tables.webhookDeliveries.get(deliveryId) ?? null),
  listForEvents: (eventIds) => {
    const wanted = new Set(eventIds);
    return access.read((tables) =>
      tables.webhookDeliveries.select((delivery) => wanted.has(delivery.eventId)),
    );
  },
  listForEndpoint: ({ managerId, endpointId, status, limit, before }) =>
    access.read((tables) =>
      tables.webhookDeliveries
        .select(
          (delivery) =>
            delivery.managerId === managerId &&
            delivery.endpointId === endpointId &&
            (status === undefined || delivery.status === status) &&
            (before === undefined ||
              newestDeliveryFirst(delivery, { ...delivery, createdAt: before.createdAt, id: before.id }) > 0),
        )
        .sort(newestDeliveryFirst)
        .slice(0, Math.max(1, Math.floor(limit))),
    ),
  update: (delivery, expectedAttempts) =>
    access.write((tables) => {
      const stored = tables.webhookDeliveries.get(delivery.id);
      if (stored === undefined || stored.attempts !== expectedAttempts) return ok(false);
      tables.webhookDeliveries.set(delivery.id, delivery);
      return ok(true);
    }),
});
