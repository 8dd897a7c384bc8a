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
   * A write that adds attempts ends the claim of the attempt it records (`claimAttempt`); one that
   * does not (a redelivery) leaves a claim as it is.
   */
  update(delivery: StoredWebhookDelivery, expectedAttempts: number): ResultAsync<boolean, StorageUnavailable>;
  /**
   * Takes the right to send attempt `expectedAttempts + 1` of a pending delivery until `until`, so
   * that of two workers holding the same job (one that outlived its job's expiry, and the one the
   * job was handed to again) one sends it. True when taken: the delivery is pending, its stored
   * `attempts` is still `expectedAttempts`, and no other claim on it lasts past `now`. False
   * otherwise (recorded meanwhile, or being attempted elsewhere), and when it is gone. One atomic
   * step; a claim ends when the attempt is recorded or at `until` (a worker that died).
   */
  claimAttempt(
    deliveryId: string,
    expectedAttempts: number,
    now: Date,
    until: Date,
  ): ResultAsync<boolean, StorageUnavailable>;
}
