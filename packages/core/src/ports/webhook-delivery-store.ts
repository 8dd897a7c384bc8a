import type { ResultAsync } from 'neverthrow';
import type { StoredWebhookDelivery } from '../domain/webhook-delivery.js';
import type { StorageUnavailable } from '../errors.js';
import type { WebhookDeliveryStatus } from '../schemas/webhook-endpoints.js';

export type WebhookDeliveryQuery = {
  readonly managerId: string;
  readonly endpointId: string;
  readonly status?: WebhookDeliveryStatus;
  readonly limit: number;
  /**
   * Only deliveries older than this one (newest first: createdAt, then id, descending). Decoded by
   * core's cursor codec, like the client list's.
   */
  readonly before?: { readonly createdAt: string; readonly id: string };
};

/** The deliveries of events to endpoints: one per (endpoint, event), and the state of its attempts. */
export interface WebhookDeliveryStore {
  /**
   * Adds the deliveries that do not exist yet for their (endpoint, event), and none to an endpoint
   * that does not exist (removed meanwhile); the others stay as they are. One statement: atomic.
   */
  insertMissing(deliveries: readonly StoredWebhookDelivery[]): ResultAsync<void, StorageUnavailable>;
  find(deliveryId: string): ResultAsync<StoredWebhookDelivery | null, StorageUnavailable>;
  /** The deliveries of these events, to every endpoint, in no particular order. */
  listForEvents(eventIds: readonly string[]): ResultAsync<StoredWebhookDelivery[], StorageUnavailable>;
  listForEndpoint(query: WebhookDeliveryQuery): ResultAsync<StoredWebhookDelivery[], StorageUnavailable>;
  /**
   * Writes the delivery when its stored `attempts` is still `expectedAttempts` (a compare-and-set:
   * of two workers that raced on one attempt, one records it); false otherwise or when it is gone.
   */
  update(delivery: StoredWebhookDelivery, expectedAttempts: number): ResultAsync<boolean, StorageUnavailable>;
}
