import { err, ok, Result } from 'neverthrow';
import { Webhook } from 'standardwebhooks';
import { type ClientEvent, clientEventSchema } from '../schemas/client-events.js';

/** The three headers of a Standard Webhooks delivery. */
export type WebhookSignatureHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

/**
 * Signs a delivery per the Standard Webhooks spec with the `standardwebhooks` package: one
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space separated, so that a receiver
 * holding either side of a rotation verifies it.
 */
export const signWebhook = (input: {
  readonly messageId: string;
  readonly timestamp: Date;
  readonly body: string;
  readonly secrets: readonly string[];
}): WebhookSignatureHeaders => ({
  'webhook-id': input.messageId,
  'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
  'webhook-signature': input.secrets
    .map((secret) => new Webhook(secret).sign(input.messageId, input.timestamp, input.body))
    .join(' '),
});

export type WebhookVerificationFailed = {
  readonly type: 'WebhookVerificationFailed';
  readonly reason: string;
};

/** A delivery whose signature and timestamp checked out. */
export type VerifiedWebhook = {
  /** `webhook-id`: the event's id, the same on every retry; deduplicate on it. */
  readonly id: string;
  readonly timestamp: Date;
  readonly event: ClientEvent;
};

type HeaderValue = string | readonly string[] | undefined;
/** Request headers as Node (`req.headers`) or the Fetch API (`request.headers`) give them. */
export type ReceivedWebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, HeaderValue>>;

const isHeaderLookup = (headers: ReceivedWebhookHeaders): headers is { get(name: string): string | null } =>
  typeof headers.get === 'function';

const headerNamed = (headers: ReceivedWebhookHeaders, name: string): Result<string, string> => {
  if (isHeaderLookup(headers)) {
    const value = headers.get(name);
    return value === null ? err(`The ${name} header is missing`) : ok(value);
  }
  const values = Object.entries(headers)
    .filter(([key]) => key.toLowerCase() === name)
    .flatMap(([, value]) => (value === undefined ? [] : typeof value === 'string' ? [value] : [...value]));
  if (values.length === 0) return err(`The ${name} header is missing`);
  if (values.length > 1) return err(`The ${name} header is repeated`);
  return ok(values[0] as string);
};

const failed = (reason: string): WebhookVerificationFailed => ({ type: 'WebhookVerificationFailed', reason });

/**
 * For hosts receiving the kit's webhooks: checks the signature against `secret` (or any of several,
 * during a rotation) and the timestamp within the spec's 5-minute tolerance, then reads the event.
 * Pass the body exactly as received (the raw bytes, not re-serialized JSON). Never throws.
 */
export const verifyWebhook = (
  rawBody: string | Uint8Array,
  headers: ReceivedWebhookHeaders,
  secret: string | readonly string[],
): Result<VerifiedWebhook, WebhookVerificationFailed> => {
  const read = Result.combine([
    headerNamed(headers, 'webhook-id'),
    headerNamed(headers, 'webhook-timestamp'),
    headerNamed(headers, 'webhook-signature'),
  ]);
  if (read.isErr()) return err(failed(read.error));
  const [id = '', timestamp = '', signature = ''] = read.value;
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0) return err(failed('No secret to verify with'));
  let payload: unknown;
  let lastReason = 'No matching signature found';
  const verified = secrets.some((candidate) => {
    try {
      payload = new Webhook(candidate).verify(body, {
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      });
      return true;
    } catch (error) {
      lastReason = error instanceof Error ? error.message : String(error);
      return false;
    }
  });
  if (!verified) return err(failed(lastReason));
  const event = clientEventSchema.safeParse(payload);
  if (!event.success) return err(failed('The body is not a client event of this version'));
  if (event.data.id !== id) return err(failed('The webhook-id is not the id of the event in the body'));
  return ok({ id, timestamp: new Date(Number(timestamp) * 1000), event: event.data });
};
