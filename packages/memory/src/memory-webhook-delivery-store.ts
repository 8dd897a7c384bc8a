import {
  newestFirst,
  type StoredWebhookDelivery,
  type WebhookDeliveryStore,
} from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

/** At most one delivery per event and endpoint. */
const pairOf = ({ eventId, endpointId }: StoredWebhookDelivery) => JSON.stringify([eventId, endpointId]);

export const createMemoryWebhookDeliveryStore = (access: TableAccess): WebhookDeliveryStore => ({
  insertMissing: (deliveries) =>
    access.write((tables) => {
      const taken = new Set([...tables.webhookDeliveries.values()].map(pairOf));
      for (const delivery of deliveries) {
        // An endpoint removed meanwhile takes no delivery (PostgreSQL's foreign key does the same).
        if (taken.has(pairOf(delivery)) || tables.webhookEndpoints.get(delivery.endpointId) === undefined)
          continue;
        tables.webhookDeliveries.set(delivery.id, frozenClone(delivery));
        taken.add(pairOf(delivery));
      }
      return ok(undefined);
    }),
  find: (deliveryId) => access.read((tables) => tables.webhookDeliveries.get(deliveryId) ?? null),
  listForEvents: (eventIds) =>
    access.read((tables) => {
      const wanted = new Set(eventIds);
      return [...tables.webhookDeliveries.values()].filter((delivery) => wanted.has(delivery.eventId));
    }),
  listForEndpoint: ({ managerId, endpointId, status, limit, before }) =>
    access.read((tables) =>
      // A delivery carries its endpoint's manager: another manager's endpoint answers like an unknown one.
      [...tables.webhookDeliveries.values()]
        .filter(
          (delivery) =>
            delivery.endpointId === endpointId &&
            delivery.managerId === managerId &&
            (status === undefined || delivery.status === status) &&
            (before === undefined || newestFirst(delivery, before) > 0),
        )
        .sort(newestFirst)
        .slice(0, Math.max(1, Math.floor(limit))),
    ),
  update: (delivery, expectedAttempts) =>
    access.write((tables) => {
      if (tables.webhookDeliveries.get(delivery.id)?.attempts !== expectedAttempts) return ok(false);
      tables.webhookDeliveries.set(delivery.id, frozenClone(delivery));
      // A claim is for the attempt it was taken for: a new attempt count ends it.
      if (delivery.attempts !== expectedAttempts) tables.webhookAttemptClaims.delete(delivery.id);
      return ok(true);
    }),
  claimAttempt: (deliveryId, expectedAttempts, now, until) =>
    access.write((tables) => {
      const stored = tables.webhookDeliveries.get(deliveryId);
      const claimedUntil = tables.webhookAttemptClaims.get(deliveryId);
      if (
        stored?.status !== 'pending' ||
        stored.attempts !== expectedAttempts ||
        (claimedUntil !== undefined && claimedUntil > now.getTime())
      ) {
        return ok(false);
      }
      tables.webhookAttemptClaims.set(deliveryId, until.getTime());
      return ok(true);
    }),
});
