import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { LoggedEvent } from './event-log.js';

/** The work of webhook delivery, as jobs a runner hands to `kit.webhooks.runJob`. */
export type WebhookJob =
  /** Create the deliveries of these events to their manager's endpoints, and attempt each once. */
  | { readonly type: 'deliver-events'; readonly eventIds: readonly string[] }
  /** Attempt one delivery again (a retry, or a manager's redelivery). */
  | { readonly type: 'attempt-delivery'; readonly deliveryId: string }
  /**
   * Attempt these deliveries, put off while their endpoints were slow and busy (each names its
   * endpoint, so one still busy is put off again without being read).
   */
  | { readonly type: 'attempt-deliveries'; readonly deliveries: readonly PutOffDelivery[] };

/** A delivery put off, and the endpoint it goes to. */
export type PutOffDelivery = { readonly deliveryId: string; readonly endpointId: string };

/**
 * The job queue, bound to the command's transaction (jobs commit with the change that made them,
 * or not at all). On PostgreSQL a job engine; in memory a list the controllable clock drives.
 */
export interface WebhookJobQueue {
  /** Enqueues delivery of a command's events, when their manager has any endpoint (else nothing). */
  enqueueEventDeliveries(events: readonly LoggedEvent[]): ResultAsync<void, StorageUnavailable>;
  /** Enqueues one attempt of a delivery, to run at `runAt` or later. */
  enqueueAttempt(deliveryId: string, runAt: Date): ResultAsync<void, StorageUnavailable>;
  /** Enqueues one job attempting these deliveries, to run at `runAt` or later. */
  enqueueAttempts(deliveries: readonly PutOffDelivery[], runAt: Date): ResultAsync<void, StorageUnavailable>;
}
