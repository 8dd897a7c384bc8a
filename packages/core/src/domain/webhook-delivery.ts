import type { ClientEventType } from '../schemas/client-events.js';
import type { WebhookDelivery, WebhookDeliveryStatus } from '../schemas/webhook-endpoints.js';

/**
 * What came back: an HTTP answer (any status), or no answer at all and why. The reason is coarse
 * on purpose: it is shown to the manager who registered the URL, and a socket error's text (refused,
 * reset, a TLS alert, an address) would tell an open port from a closed one on a network the
 * manager cannot otherwise see.
 */
export type WebhookAnswer =
  | { readonly type: 'answered'; readonly statusCode: number; readonly retryAfter: string | null }
  | {
      readonly type: 'unreachable';
      readonly reason: 'connection failed' | 'timeout' | 'address not allowed';
    };

/** One event to one endpoint, and how its attempts went. */
export type StoredWebhookDelivery = {
  readonly id: string;
  readonly managerId: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: ClientEventType;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly createdAt: string;
  /** Past this instant no new attempt is made: the delivery is failed (a redelivery moves it). */
  readonly retryUntil: string;
  readonly lastAttemptAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
};

export const toWebhookDeliveryResponse = ({
  managerId: _managerId,
  retryUntil: _retryUntil,
  ...visible
}: StoredWebhookDelivery): WebhookDelivery => visible;

/** How an attempt ended, as the transport saw it. */
export type WebhookAttemptOutcome =
  | { readonly type: 'answered'; readonly statusCode: number; readonly retryAfterMs: number | null }
  | Extract<WebhookAnswer, { readonly type: 'unreachable' }>;

const FIRST_RETRY_DELAY_MS = 5_000;
const BACKOFF_FACTOR = 3;
const LONGEST_RETRY_DELAY_MS = 4 * 60 * 60_000;

/**
 * The delay before attempt `attempts + 1`, after `attempts` failed ones: 5 s, 15 s, 45 s … up to
 * 4 hours, with "equal jitter" (half fixed, half random) so receivers that failed together are
 * not retried together. `random` is in [0, 1).
 */
export const retryDelayMs = (attempts: number, random: number): number => {
  const exponential = Math.min(
    LONGEST_RETRY_DELAY_MS,
    FIRST_RETRY_DELAY_MS * BACKOFF_FACTOR ** Math.max(0, attempts - 1),
  );
  return Math.round(exponential / 2 + (exponential / 2) * random);
};

/** A `Retry-After` header value (seconds or an HTTP date) as milliseconds from `now`, or null. */
export const parseRetryAfter = (value: string | null | undefined, now: Date): number | null => {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^[0-9]{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
};

/**
 * 410 Gone: the receiver says the endpoint is no more (Standard Webhooks). Its deliveries are not
 * retried, and the endpoint is disabled (webhook-delivery-operations.ts).
 */
const GONE = 410;

/**
 * The delivery after one more attempt: succeeded on a 2xx; failed at once on 410 Gone; otherwise
 * pending again at the later of the backoff and the receiver's `Retry-After`, or failed when that
 * falls past `retryUntil`.
 */
export const deliveryAfterAttempt = (
  delivery: StoredWebhookDelivery,
  outcome: WebhookAttemptOutcome,
  now: Date,
  random: number,
): StoredWebhookDelivery => {
  const attempts = delivery.attempts + 1;
  const attempted = { ...delivery, attempts, lastAttemptAt: now.toISOString() };
  if (outcome.type === 'answered' && outcome.statusCode >= 200 && outcome.statusCode < 300) {
    return {
      ...attempted,
      status: 'succeeded',
      nextAttemptAt: null,
      lastStatusCode: outcome.statusCode,
      lastError: null,
    };
  }
  const lastStatusCode = outcome.type === 'answered' ? outcome.statusCode : null;
  // Coarse (what the manager sees): "HTTP 500", "timeout", "connection failed", "address not allowed".
  const lastError = outcome.type === 'answered' ? `HTTP ${outcome.statusCode}` : outcome.reason;
  const delay = Math.max(
    retryDelayMs(attempts, random),
    outcome.type === 'answered' ? (outcome.retryAfterMs ?? 0) : 0,
  );
  const next = now.getTime() + delay;
  return next > Date.parse(delivery.retryUntil) || lastStatusCode === GONE
    ? { ...attempted, status: 'failed', nextAttemptAt: null, lastStatusCode, lastError }
    : {
        ...attempted,
        status: 'pending',
        nextAttemptAt: new Date(next).toISOString(),
        lastStatusCode,
        lastError,
      };
};
