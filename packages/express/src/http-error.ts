import type { DomainError, ErrorBody, ErrorCode, ParameterErrors } from '@onboarding-kit/core';
import { match } from 'ts-pattern';
import { bytesLabel } from './quantity-labels.js';

/** Failures only the HTTP binding can see: the request never reached core, or something threw. */
export type MalformedJson = { readonly type: 'MalformedJson'; readonly detail: string };
/** A request path whose percent-encoding does not decode to UTF-8 (`%C0`, `%`, `%zz`). */
export type MalformedPath = { readonly type: 'MalformedPath' };
/** An upload whose body did not arrive within the allowed time. */
export type RequestTimeout = { readonly type: 'RequestTimeout'; readonly timeoutMs: number };
/**
 * A body that would fit alone, refused before it is read because others already in flight hold
 * the bytes of its link or owner (the caller's own: 429) or of the process (everyone's: 503).
 */
export type InFlightBytesExceeded = {
  readonly type: 'InFlightBytesExceeded';
  readonly scope: 'link' | 'owner' | 'process';
  readonly retryAfterSeconds: number;
};
/** A manager past its request rate (`managerRateLimit` of the mount). */
export type RequestRateLimited = { readonly type: 'RequestRateLimited'; readonly retryAfterSeconds: number };
export type PayloadTooLarge = { readonly type: 'PayloadTooLarge'; readonly limitBytes: number };
export type UnsupportedMediaType = { readonly type: 'UnsupportedMediaType'; readonly reason: string };
export type RouteNotFound = {
  readonly type: 'RouteNotFound';
  readonly method: string;
  readonly path: string;
};
/** Anything unexpected. `cause` goes to the host's logger, never into a response body. */
export type Internal = { readonly type: 'Internal'; readonly cause: unknown };

export type BindingError =
  | MalformedJson
  | MalformedPath
  | RequestTimeout
  | InFlightBytesExceeded
  | RequestRateLimited
  | PayloadTooLarge
  | UnsupportedMediaType
  | RouteNotFound
  | Internal;
export type HttpFailure = DomainError | BindingError;

export const malformedJson = (detail: string): MalformedJson => ({ type: 'MalformedJson', detail });
export const malformedPath = (): MalformedPath => ({ type: 'MalformedPath' });
export const requestTimeout = (timeoutMs: number): RequestTimeout => ({ type: 'RequestTimeout', timeoutMs });
export const inFlightBytesExceeded = (
  scope: InFlightBytesExceeded['scope'],
  retryAfterSeconds: number,
): InFlightBytesExceeded => ({ type: 'InFlightBytesExceeded', scope, retryAfterSeconds });
export const requestRateLimited = (retryAfterSeconds: number): RequestRateLimited => ({
  type: 'RequestRateLimited',
  retryAfterSeconds,
});
export const payloadTooLarge = (limitBytes: number): PayloadTooLarge => ({
  type: 'PayloadTooLarge',
  limitBytes,
});
export const unsupportedMediaType = (reason: string): UnsupportedMediaType => ({
  type: 'UnsupportedMediaType',
  reason,
});
/** A JSON body in another charset than UTF-8 (decided before parsing, or by body-parser). */
export const unsupportedCharset = (): UnsupportedMediaType =>
  unsupportedMediaType('The request body must be UTF-8 encoded JSON');
/** A JSON body's Content-Encoding other than those both Express 4 and 5 inflate. */
export const unsupportedContentEncoding = (): UnsupportedMediaType =>
  unsupportedMediaType('This Content-Encoding is not supported: send identity, gzip or deflate');
export const routeNotFound = (method: string, path: string): RouteNotFound => ({
  type: 'RouteNotFound',
  method,
  path,
});
export const internal = (cause: unknown): Internal => ({ type: 'Internal', cause });

/** The status of every code of decisions §2: the one table both the routers and the OpenAPI document read. */
export const errorStatusByCode = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CLIENT_NOT_FOUND: 404,
  PRESET_FEE_NOT_FOUND: 404,
  DOCUMENT_NOT_FOUND: 404,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  SCREENING_HIT_NOT_FOUND: 404,
  INVALID_STATUS: 409,
  SCREENING_UNRESOLVED: 409,
  // An If-Match that failed (RFC 9110, 13.1.1): 412, not 409, as HTTP clients expect of it.
  CLIENT_CHANGED: 412,
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  TOO_MANY_REQUESTS: 429,
  STORAGE_UNAVAILABLE: 503,
  SERVER_BUSY: 503,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>;

/** What a failure answers: status, the error body of decisions §2, and any extra header. */
export type HttpError = {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
};

const httpError = (
  code: ErrorCode,
  reason: string,
  parameterErrors: ErrorBody['parameterErrors'] = null,
  headers: Readonly<Record<string, string>> = {},
): HttpError => ({ status: errorStatusByCode[code], body: { code, reason, parameterErrors }, headers });

/** The most field paths one error answer lists (decisions §2 keeps the shape; this keeps it small). */
export const MAX_PARAMETER_ERROR_PATHS = 100;
/** A path longer than this (an unknown property's key is the caller's) is cut, marked with `…`. */
const MAX_PARAMETER_ERROR_PATH_CHARS = 200;
/** Messages listed per path at most. */
const MAX_MESSAGES_PER_PATH = 10;

/**
 * `parameterErrors` as answered: the first paths only, each short, so a body of 90,000 unknown
 * keys answers a few KB instead of echoing them all; `totalParameterErrors` counts every path.
 */
const boundedParameterErrors = (
  parameterErrors: ParameterErrors | null,
): Pick<ErrorBody, 'parameterErrors' | 'totalParameterErrors'> => {
  if (parameterErrors === null) return { parameterErrors: null };
  const paths = Object.keys(parameterErrors);
  const bounded = new Map<string, string[]>();
  for (const path of paths.slice(0, MAX_PARAMETER_ERROR_PATHS)) {
    const shown =
      path.length > MAX_PARAMETER_ERROR_PATH_CHARS
        ? `${path.slice(0, MAX_PARAMETER_ERROR_PATH_CHARS)}…`
        : path;
    const messages = (parameterErrors[path] ?? []).slice(0, MAX_MESSAGES_PER_PATH);
    bounded.set(shown, [...(bounded.get(shown) ?? []), ...messages]);
  }
  // Own properties from a Map: a path named `__proto__` stays a plain key.
  const answered = Object.fromEntries(bounded);
  return paths.length > MAX_PARAMETER_ERROR_PATHS
    ? { parameterErrors: answered, totalParameterErrors: paths.length }
    : { parameterErrors: answered };
};

/**
 * The one mapping from a failure to its HTTP answer. Exhaustive: a new error type in core that is
 * not mapped here fails to compile. A resource of another manager reaches this as the same
 * `ClientNotFound` / `PresetFeeNotFound` / `DocumentNotFound` as an unknown one, so it answers alike.
 */
export const toHttpError = (error: HttpFailure): HttpError =>
  match(error)
    .returnType<HttpError>()
    .with({ type: 'ValidationFailed' }, (e) => {
      const answer = httpError('VALIDATION_FAILED', e.reason);
      return { ...answer, body: { ...answer.body, ...boundedParameterErrors(e.parameterErrors) } };
    })
    .with({ type: 'MalformedJson' }, (e) =>
      httpError('MALFORMED_JSON', `The request body is not valid JSON: ${e.detail}`),
    )
    .with({ type: 'MalformedPath' }, () =>
      httpError('VALIDATION_FAILED', 'The request path is not valid percent-encoded UTF-8'),
    )
    .with({ type: 'RequestTimeout' }, (e) =>
      httpError('REQUEST_TIMEOUT', `The request body did not arrive within ${e.timeoutMs / 1000} s`),
    )
    .with({ type: 'InFlightBytesExceeded', scope: 'link' }, (e) =>
      httpError(
        'TOO_MANY_REQUESTS',
        `Another upload to this link is still arriving: retry in ${e.retryAfterSeconds} s`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'InFlightBytesExceeded', scope: 'owner' }, (e) =>
      httpError(
        'TOO_MANY_REQUESTS',
        `Too many of your uploads are arriving at once: retry in ${e.retryAfterSeconds} s`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'InFlightBytesExceeded', scope: 'process' }, (e) =>
      httpError(
        'SERVER_BUSY',
        `The server is receiving too many uploads at once: retry in ${e.retryAfterSeconds} s`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'RequestRateLimited' }, (e) =>
      httpError(
        'TOO_MANY_REQUESTS',
        `You sent more requests than your rate allows: retry in ${e.retryAfterSeconds} s`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'Unauthorized' }, (e) => httpError('UNAUTHORIZED', e.reason))
    .with({ type: 'Forbidden' }, (e) => httpError('FORBIDDEN', e.reason))
    .with({ type: 'RouteNotFound' }, (e) => httpError('NOT_FOUND', `No route ${e.method} ${e.path}`))
    .with({ type: 'ClientNotFound' }, (e) =>
      httpError('CLIENT_NOT_FOUND', `Client ${e.clientId} was not found`),
    )
    .with({ type: 'PresetFeeNotFound' }, (e) =>
      httpError('PRESET_FEE_NOT_FOUND', `Preset fee ${e.presetFeeId} was not found`),
    )
    .with({ type: 'DocumentNotFound' }, (e) =>
      httpError('DOCUMENT_NOT_FOUND', `Documents not found: ${e.keys.join(', ')}`),
    )
    .with({ type: 'InvalidStatus' }, (e) =>
      httpError(
        'INVALID_STATUS',
        `Client ${e.clientId} is in status ${e.currentStatus}: ${e.trigger} is not allowed from it`,
      ),
    )
    .with({ type: 'ClientTypeMismatch' }, (e) =>
      httpError(
        'INVALID_STATUS',
        `Client ${e.clientId} is an ${e.clientType} client: this route takes ${e.expected} onboarding`,
      ),
    )
    .with({ type: 'IdempotencyRequestInProgress' }, () =>
      httpError(
        'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        'A request with this Idempotency-Key is still running: retry shortly',
        null,
        { 'Retry-After': '1' },
      ),
    )
    .with({ type: 'IdempotencyKeyReused' }, () =>
      httpError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request body',
      ),
    )
    .with({ type: 'IdempotencyQuotaExceeded' }, (e) =>
      httpError(
        'TOO_MANY_REQUESTS',
        `You hold ${e.limit} live Idempotency-Keys, the most one caller may: retry in ${e.retryAfterSeconds} s, when the oldest expires`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'TemporaryStorageFull' }, (e) =>
      httpError(
        'TOO_MANY_REQUESTS',
        `Your temporary storage holds as much as one caller may (${e.maxFiles} files, ${bytesLabel(e.maxBytes)}, upload links included): use or let expire what you uploaded, then retry in ${e.retryAfterSeconds} s`,
        null,
        { 'Retry-After': String(e.retryAfterSeconds) },
      ),
    )
    .with({ type: 'SignedLinkRejected', reason: 'too-large' }, () =>
      httpError('PAYLOAD_TOO_LARGE', 'The uploaded file is larger than this link accepts'),
    )
    .with({ type: 'SignedLinkRejected', reason: 'quota-exceeded' }, () =>
      httpError(
        'PAYLOAD_TOO_LARGE',
        'Your temporary storage is full: use the files you uploaded, or wait until they expire',
      ),
    )
    .with({ type: 'SignedLinkRejected', reason: 'expired' }, () =>
      httpError('FORBIDDEN', 'This link has expired: request a new one'),
    )
    .with({ type: 'SignedLinkRejected', reason: 'invalid' }, () =>
      httpError('FORBIDDEN', 'This link is not valid'),
    )
    .with({ type: 'WebhookEndpointNotFound' }, (e) =>
      httpError('WEBHOOK_ENDPOINT_NOT_FOUND', `Webhook endpoint ${e.endpointId} was not found`),
    )
    .with({ type: 'WebhookDeliveryNotFound' }, (e) =>
      httpError('WEBHOOK_DELIVERY_NOT_FOUND', `Webhook delivery ${e.deliveryId} was not found`),
    )
    .with({ type: 'ScreeningHitNotFound' }, (e) =>
      httpError('SCREENING_HIT_NOT_FOUND', `Screening hit ${e.hitId} of client ${e.clientId} was not found`),
    )
    .with({ type: 'ScreeningUnresolved' }, (e) =>
      httpError(
        'SCREENING_UNRESOLVED',
        `Client ${e.clientId} cannot be ${e.trigger === 'SIGN_TERMS' ? 'verified' : 'approved'}: ` +
          (e.screeningStatus === 'NONE'
            ? 'it was never screened (stored before screening was on): request a resubmission to screen it'
            : `its screening is ${e.screeningStatus}` +
              (e.screeningStatus === 'POSSIBLE_MATCH' ? ' with a hit not dismissed' : '')),
      ),
    )
    .with({ type: 'ClientChanged' }, (e) =>
      httpError(
        'CLIENT_CHANGED',
        `Client ${e.clientId} changed since the version in If-Match: nothing was done. Read it again, review what changed, and send its new ETag`,
      ),
    )
    .with({ type: 'WebhookEndpointLimitReached' }, (e) =>
      httpError(
        'WEBHOOK_ENDPOINT_LIMIT_REACHED',
        `A manager may register at most ${e.limit} webhook endpoints: delete one first`,
      ),
    )
    .with({ type: 'PayloadTooLarge' }, (e) =>
      httpError(
        'PAYLOAD_TOO_LARGE',
        e.limitBytes > 0
          ? `The request body is larger than ${bytesLabel(e.limitBytes)}`
          : 'The request body is too large',
      ),
    )
    .with({ type: 'UnsupportedMediaType' }, (e) => httpError('UNSUPPORTED_MEDIA_TYPE', e.reason))
    .with({ type: 'StorageUnavailable' }, () =>
      httpError('STORAGE_UNAVAILABLE', 'A storage the service depends on is unavailable: retry later'),
    )
    .with({ type: 'CommitOutcomeUnknown' }, () =>
      httpError(
        'STORAGE_UNAVAILABLE',
        'The connection to storage was lost while saving: retry with the same Idempotency-Key to learn the outcome',
        null,
        { 'Retry-After': '1' },
      ),
    )
    .with({ type: 'Internal' }, () => httpError('INTERNAL', 'An unexpected error occurred'))
    .exhaustive();
