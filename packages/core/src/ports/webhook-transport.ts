import type { ResultAsync } from 'neverthrow';
import type { WebhookAnswer } from '../domain/webhook-delivery.js';

/** One signed POST of a delivery. */
export type WebhookRequest = {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** When false, the transport refuses to connect to any address that is not public unicast. */
  readonly allowPrivateNetworks: boolean;
};

export type { WebhookAnswer } from '../domain/webhook-delivery.js';

/** Sends deliveries over HTTP. Never fails: a network error or timeout is an `unreachable` answer. */
export interface WebhookTransport {
  send(request: WebhookRequest): ResultAsync<WebhookAnswer, never>;
}
