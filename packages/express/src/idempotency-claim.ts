import type { DomainError, IdempotencyDecision, OnboardingKit } from '@onboarding-kit/core';
import {
  type IdempotencyClaimRef,
  parseIdempotencyKey,
  type RecordedOutcome,
  type ValidationFailed,
} from '@onboarding-kit/core/adapter';
import type { Request } from 'express';
import { errAsync, okAsync, type Result, type ResultAsync } from 'neverthrow';
import type { HttpLogger } from './http-logger.js';

/** What a request's Idempotency-Key asks for: nothing (no key), a fresh claim, or a replay. */
export type KeyedRequest =
  | { readonly type: 'Unkeyed' }
  | { readonly type: 'Claimed'; readonly ref: IdempotencyClaimRef }
  | { readonly type: 'Replay'; readonly outcome: RecordedOutcome };

/**
 * One path segment as Express reads a parameter (percent-decoded), written back in one spelling:
 * `%61` and `a` are one segment, an encoded `/` stays inside its segment. Not valid percent-encoding
 * (Express refuses it as a parameter, with 400): kept as typed, never thrown.
 */
const decodedSegment = (segment: string): string => {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return segment;
  }
};

/** What a claim is made on: the scope's route, and the request the key's fingerprint stands for. */
type ClaimTarget = { readonly route: string; readonly body: unknown };

/**
 * The route the request matched, whatever its spelling: the route's pattern and its decoded
 * parameter values, not the path as typed. Express matches paths case-insensitively, ignores a
 * trailing slash and decodes parameters, so `/clients/entities`, `/CLIENTS/Entities/` and the
 * same path with an encoded letter in a parameter all name one route and must share one scope.
 *
 * A host that mounts the middleware before routing (`app.use`: no matched route yet) only has the
 * typed path, read segment by segment percent-decoded (`decodedSegment`), without a trailing slash.
 * Which segments are parameters is not known there, and case is the one thing that cannot be
 * settled: Express folds it in the fixed segments (`/TRANSFERS` is `/transfers`) and keeps it in
 * ids (`ACC1` is not `acc1`). Folding it everywhere would let `acc1` be answered with the recorded
 * answer of `ACC1`; keeping it everywhere would let `/Accounts/acc1` run a second time what
 * `/accounts/acc1` ran under the same key. So neither: the scope holds the path case-folded, and
 * the key's fingerprint holds the decoded path with its case kept (with the body). Spellings of one
 * path that differ only by encoding or a trailing slash replay; one that differs in case under the
 * same key is 422 IDEMPOTENCY_KEY_REUSED: never run twice, never answered for another id. (The
 * body is one level deeper there, so it may nest one level less.) Mount the middleware on the
 * route for exact parameter values.
 */
const claimTargetOf = (req: Request): ClaimTarget => {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') {
    const params = Object.entries(req.params as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
    // The mount path keeps two routers' same-named routes apart; Express matched it case-insensitively.
    return { route: `${req.baseUrl.toLowerCase()}${pattern} ${JSON.stringify(params)}`, body: req.body };
  }
  const decoded = `${req.baseUrl}${req.path}`.split('/').map(decodedSegment).join('/');
  const path = decoded.length > 1 && decoded.endsWith('/') ? decoded.slice(0, -1) : decoded;
  // Only ASCII letters are folded (encodeURIComponent escapes the rest), as Express matches paths.
  return { route: path.toLowerCase(), body: { path, body: req.body } };
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
): ResultAsync<IdempotencyDecision, DomainError> => {
  const { route, body } = claimTargetOf(req);
  return idempotency.claim({ scope: `${caller} ${req.method} ${route}`, key, owner: caller, body });
};

/**
 * Renews a held claim's lock every `lockRenewalIntervalMs` until the returned stop is called, so a
 * request running longer than the lock TTL is not taken over by a retry (which would run it twice).
 * It goes on after the caller hangs up (the work still runs, and a retry must wait for it), but for
 * `maxLockRenewalMs` at most: a handler that never answers then lets its lock expire, and a retry
 * takes the key over (the stuck handler's own completion is refused).
 */
export const renewWhileRunning = (
  idempotency: OnboardingKit['idempotency'],
  ref: IdempotencyClaimRef,
  req: Request,
  logger: HttpLogger,
): (() => void) => {
  const renewUntil = Date.now() + idempotency.maxLockRenewalMs;
  const timer = setInterval(() => {
    if (Date.now() >= renewUntil) {
      clearInterval(timer);
      logger.warn?.('onboarding-kit: stopped renewing the idempotency lock of a request still running', {
        method: req.method,
        path: req.originalUrl,
        key: ref.key,
        maxLockRenewalMs: idempotency.maxLockRenewalMs,
      });
      return;
    }
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

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Reads `Idempotency-Key` with core's rule (decisions §5). `rawHeaders` is read because Node joins
 * a repeated header with a comma before anyone can count it.
 */
export const parseIdempotencyKeyHeader = (request: {
  readonly rawHeaders: readonly string[];
}): Result<string | null, ValidationFailed> => {
  const values: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index] ?? '';
    // The length first: most headers are skipped without a lower-cased copy of their name.
    if (name.length === 15 && name.toLowerCase() === 'idempotency-key') {
      values.push(request.rawHeaders[index + 1] ?? '');
    }
  }
  return parseIdempotencyKey(values.length === 0 ? undefined : values);
};
