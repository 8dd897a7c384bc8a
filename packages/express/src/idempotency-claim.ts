import type {
  DomainError,
  IdempotencyClaimRef,
  IdempotencyDecision,
  OnboardingKit,
  RecordedOutcome,
} from '@onboarding-kit/core';
import type { Request } from 'express';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { HttpLogger } from './http-logger.js';
import { parseIdempotencyKeyHeader } from './idempotency-key-header.js';

/** What a request's Idempotency-Key asks for: nothing (no key), a fresh claim, or a replay. */
export type KeyedRequest =
  | { readonly type: 'Unkeyed' }
  | { readonly type: 'Claimed'; readonly ref: IdempotencyClaimRef }
  | { readonly type: 'Replay'; readonly outcome: RecordedOutcome };

/** One path segment as Express reads a parameter (percent-decoded), written back in one spelling. */
const canonicalSegment = (segment: string): string => {
  try {
    return encodeURIComponent(decodeURIComponent(segment)).toLowerCase();
  } catch {
    // Not valid percent-encoding: Express refuses it before any handler; kept as typed.
    return segment.toLowerCase();
  }
};

/**
 * The route the request matched, whatever its spelling: the route's pattern and its decoded
 * parameter values, not the path as typed. Express matches paths case-insensitively, ignores a
 * trailing slash and decodes parameters, so `/clients/entities`, `/CLIENTS/Entities/` and the
 * same path with an encoded letter in a parameter all name one route and must share one scope.
 *
 * A host that mounts the middleware before routing (`app.use`: no matched route yet) gets the
 * typed path in one spelling: each segment percent-decoded and encoded again the one way (`%61`
 * and `a` are one segment; an encoded `/` stays inside its segment), lower-cased, without a
 * trailing slash. Which segments are parameters is not known there, so case is folded in all of
 * them: one key can then never run one request twice (`/CLIENTS/a1` is `/clients/a1`), at the cost
 * that two ids differing only in case share the key's scope (a reused key replays, it never runs
 * for the other). Mount it on the route for exact parameter values.
 */
const routeOf = (req: Request): string => {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') {
    const params = Object.entries(req.params as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
    // The mount path keeps two routers' same-named routes apart; Express matched it case-insensitively.
    return `${req.baseUrl.toLowerCase()}${pattern} ${JSON.stringify(params)}`;
  }
  const path = `${req.baseUrl}${req.path}`.split('/').map(canonicalSegment).join('/');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

/**
 * Reads the request's Idempotency-Key (decisions §5) and claims it for `caller` on this method and
 * route. Err: the refusal to answer (a malformed key 400, in progress 409, reused 422, over the
 * caller's quota 429, an outage 503).
 */
export const claimIdempotencyKey = (
  idempotency: OnboardingKit['idempotency'],
  req: Request,
  caller: string,
): ResultAsync<KeyedRequest, DomainError> => {
  const parsed = parseIdempotencyKeyHeader(req);
  if (parsed.isErr()) return errAsync(parsed.error);
  const key = parsed.value;
  if (key === null) return okAsync({ type: 'Unkeyed' });
  return claimKeyOfRequest(idempotency, req, caller, key);
};

/** Claims `key` (already read from the request's Idempotency-Key) for `caller` on this method and route. */
export const claimKeyOfRequest = (
  idempotency: OnboardingKit['idempotency'],
  req: Request,
  caller: string,
  key: string,
): ResultAsync<IdempotencyDecision, DomainError> =>
  idempotency.claim({
    scope: `${caller} ${req.method} ${routeOf(req)}`,
    key,
    owner: caller,
    body: req.body,
  });

/**
 * Renews a held claim's lock every `lockRenewalIntervalMs` until the returned stop is called, so a
 * request running longer than the lock TTL is not taken over by a retry (which would run it twice).
 * It goes on after the caller hangs up: the work still runs, and a retry must wait for it.
 */
export const renewWhileRunning = (
  idempotency: OnboardingKit['idempotency'],
  ref: IdempotencyClaimRef,
  req: Request,
  logger: HttpLogger,
): (() => void) => {
  const timer = setInterval(() => {
    void idempotency.renew(ref).match(
      () => undefined,
      (failure) => {
        if (failure.type === 'IdempotencyRequestInProgress') clearInterval(timer);
        else
          logger.error('onboarding-kit: could not renew an idempotency lock', {
            method: req.method,
            path: req.originalUrl,
            key: ref.key,
            failure,
          });
      },
    );
  }, idempotency.lockRenewalIntervalMs);
  // A pending renewal never keeps the process alive.
  timer.unref?.();
  return () => clearInterval(timer);
};
