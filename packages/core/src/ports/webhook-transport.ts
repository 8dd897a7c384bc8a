import type { ResultAsync } from 'neverthrow';

/** One signed POST of a delivery. */
export type WebhookRequest = {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** When false, the transport refuses to connect to any address that is not public unicast. */
  readonly allowPrivateNetworks: boolean;
};

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

/** Sends deliveries over HTTP. Never fails: a network error or timeout is an `unreachable` answer. */
export interface WebhookTransport {
  send(request: WebhookRequest): ResultAsync<WebhookAnswer, never>;
}
