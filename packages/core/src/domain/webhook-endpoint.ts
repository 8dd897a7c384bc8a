import { randomBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import type { ClientEventType } from '../schemas/client-events.js';
import type { WebhookEndpoint } from '../schemas/webhook-endpoints.js';

/** A signing secret of an endpoint; `expiresAt` is set once a rotation replaced it. */
export type WebhookSigningSecret = { readonly secret: string; readonly expiresAt: string | null };

/** An endpoint as stored: its secrets, newest first (the first one never expires). */
export type StoredWebhookEndpoint = {
  readonly id: string;
  readonly managerId: string;
  readonly url: string;
  readonly description: string | null;
  /** null: every event type, including types a later version adds. */
  readonly eventTypes: readonly ClientEventType[] | null;
  readonly createdAt: string;
  readonly secrets: readonly WebhookSigningSecret[];
  /** Since when every attempt has failed (the first failure after the last success); null when not failing. */
  readonly failingSince: string | null;
  /** Set when the kit disabled it: it gets no new deliveries until its manager enables it again. */
  readonly disabledAt: string | null;
  readonly disabledReason: WebhookEndpointDisabledReason | null;
};

/**
 * Why an endpoint was disabled: `gone`, it answered 410 Gone (Standard Webhooks: the receiver says
 * it is no more); `failing`, every attempt to it failed for `DISABLE_AFTER_FAILING_MS`.
 */
export type WebhookEndpointDisabledReason = 'gone' | 'failing';

/**
 * How long an endpoint may fail every attempt before it is disabled: 5 days, as Svix does. Longer
 * than the 3-day retry window, so an outage a receiver fixes within it loses nothing; a receiver
 * gone for good stops costing attempts (and the manager learns of it from the endpoint's state).
 */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60_000;

/** What one recorded attempt tells of its endpoint's health. */
export type WebhookEndpointAttemptResult = 'succeeded' | 'failed' | 'gone';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret as the Standard Webhooks spec writes them: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${base64.encode(randomBytes(24))}`;

/**
 * Secrets of one endpoint that sign at once: the current one and at most two previous ones still
 * in their overlap. A rotation beyond that ends the oldest previous secret at once, so a burst of
 * rotations cannot make each delivery carry (and cost) one signature per rotation.
 */
export const MAX_LIVE_WEBHOOK_SECRETS = 3;

const liveAt = (endpoint: StoredWebhookEndpoint, now: Date): WebhookSigningSecret[] =>
  endpoint.secrets
    .filter(({ expiresAt }) => expiresAt === null || Date.parse(expiresAt) > now.getTime())
    .slice(0, MAX_LIVE_WEBHOOK_SECRETS);

/** The secrets that still sign at `now`, newest first (at most `MAX_LIVE_WEBHOOK_SECRETS`). */
export const signingSecretsAt = (endpoint: StoredWebhookEndpoint, now: Date): string[] =>
  liveAt(endpoint, now).map(({ secret }) => secret);

/**
 * The secrets after a rotation: the new one first; the newest ones still valid (two at most) keep
 * signing until the overlap ends (never longer than they would have), the others stop at once, and
 * with no overlap all of them stop at once.
 */
export const rotatedSecrets = (
  endpoint: StoredWebhookEndpoint,
  newSecret: string,
  now: Date,
  overlapMs: number,
): { secrets: WebhookSigningSecret[]; previousSecretExpiresAt: string | null } => {
  if (overlapMs <= 0)
    return { secrets: [{ secret: newSecret, expiresAt: null }], previousSecretExpiresAt: null };
  const overlapEnd = now.getTime() + overlapMs;
  const previousSecretExpiresAt = new Date(overlapEnd).toISOString();
  const previous = liveAt(endpoint, now)
    .slice(0, MAX_LIVE_WEBHOOK_SECRETS - 1)
    .map(({ secret, expiresAt }) => ({
      secret,
      expiresAt:
        expiresAt === null || Date.parse(expiresAt) > overlapEnd ? previousSecretExpiresAt : expiresAt,
    }));
  return { secrets: [{ secret: newSecret, expiresAt: null }, ...previous], previousSecretExpiresAt };
};

/** Until when a secret other than the current one still signs, if one does. */
const previousSecretExpiry = (endpoint: StoredWebhookEndpoint, now: Date): string | null =>
  liveAt(endpoint, now)
    .slice(1)
    .map(({ expiresAt }) => expiresAt)
    .filter((expiresAt): expiresAt is string => expiresAt !== null && Date.parse(expiresAt) > now.getTime())
    .sort()
    .at(-1) ?? null;

/** What a manager sees of an endpoint: never a secret. */
export const toWebhookEndpointResponse = (endpoint: StoredWebhookEndpoint, now: Date): WebhookEndpoint => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  eventTypes: endpoint.eventTypes === null ? null : [...endpoint.eventTypes],
  createdAt: endpoint.createdAt,
  previousSecretExpiresAt: previousSecretExpiry(endpoint, now),
  failingSince: endpoint.failingSince,
  disabledAt: endpoint.disabledAt,
  disabledReason: endpoint.disabledReason,
});

/** Whether the endpoint takes events of this type. */
export const endpointTakes = (endpoint: StoredWebhookEndpoint, type: ClientEventType): boolean =>
  endpoint.eventTypes === null || endpoint.eventTypes.includes(type);
