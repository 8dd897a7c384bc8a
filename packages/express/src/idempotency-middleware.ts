import {
  type DomainError,
  type IdempotencyClaimRef,
  type IdempotentCommandContext,
  type OnboardingKit,
  principalKey,
  type StoredResponse,
} from '@onboarding-kit/core';
import type { Request, RequestHandler, Response } from 'express';
import type { Result } from 'neverthrow';
import { match } from 'ts-pattern';
import { authenticatedPrincipal } from './authentication.js';
import { sendHttpFailure } from './error-response.js';
import { toHttpError } from './http-error.js';
import { consoleHttpLogger, type HttpLogger } from './http-logger.js';
import { parseIdempotencyKeyHeader } from './idempotency-key-header.js';

export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export type IdempotencyMiddlewareOptions = {
  readonly logger?: HttpLogger;
  /**
   * Names the caller in the scope. Default: `principalKey` of the principal resolved by this
   * package's authentication middleware, which must then run first.
   */
  readonly principalKeyOf?: (req: Request) => string | undefined;
  /** Which answers are recorded and replayed; default `isStorableResponse` (decisions §5). */
  readonly isStorable?: (response: StoredResponse) => boolean;
};

const errorCodeOf = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'code' in body ? body.code : undefined;

/**
 * Decisions §5: 2xx and the business refusals decided once the operation ran (404, 409
 * INVALID_STATUS) are recorded; anything else (400, 401, 403, 413, 415, 429, 409 in progress, 5xx)
 * releases the key so a corrected retry runs anew.
 */
export const isStorableResponse = ({ status, body }: StoredResponse): boolean =>
  (status >= 200 && status < 300) ||
  status === 404 ||
  (status === 409 && errorCodeOf(body) === 'INVALID_STATUS');

type HeldClaim = {
  readonly ref: IdempotencyClaimRef;
  /** What a command recorded inside its own transaction (via `encode`): not to be completed again. */
  recordedByCommand: StoredResponse | null;
  settled: boolean;
};

const heldClaims = new WeakMap<Request, HeldClaim>();

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The route the request matched, whatever its spelling: the route's pattern and its decoded
 * parameter values, not the path as typed. Express matches paths case-insensitively, ignores a
 * trailing slash and decodes parameters, so `/clients/entities`, `/CLIENTS/Entities/` and the
 * same path with an encoded letter in a parameter all name one route and must share one scope. A
 * host that mounts the middleware before routing (no matched route yet) gets the typed path,
 * lower-cased, without a trailing slash.
 */
const routeOf = (req: Request): string => {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') {
    const params = Object.entries(req.params as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
    // The mount path keeps two routers' same-named routes apart; Express matched it case-insensitively.
    return `${req.baseUrl.toLowerCase()}${pattern} ${JSON.stringify(params)}`;
  }
  const path = `${req.baseUrl}${req.path}`.toLowerCase();
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

const defaultPrincipalKeyOf = (req: Request): string | undefined => {
  const principal = authenticatedPrincipal(req);
  return principal === undefined ? undefined : principalKey(principal);
};

/**
 * The command context of a route whose core command records its own outcome inside its
 * transaction. Without a claimed key it is empty and the command runs as usual.
 */
export const idempotentCommandContext = (req: Request, successStatus: number): IdempotentCommandContext => {
  const held = heldClaims.get(req);
  if (held === undefined) return {};
  return {
    idempotency: {
      ref: held.ref,
      encode: (outcome: Result<unknown, DomainError>): StoredResponse | null => {
        const response = outcome.match<StoredResponse>(
          (value) => ({ status: successStatus, body: value }),
          (error) => {
            const answer = toHttpError(error);
            return { status: answer.status, body: answer.body };
          },
        );
        if (!isStorableResponse(response)) return null;
        held.recordedByCommand = response;
        return response;
      },
    },
  };
};

/**
 * Decisions §5 as a middleware, for this package's routers and a host's own critical routes. It
 * runs after authentication and body parsing (the fingerprint is the parsed body's canonical JSON).
 * A claimed request's JSON answer is recorded (or the key released) before it is sent, so a
 * caller who saw an answer always gets it replayed. Only JSON answers are recorded: any other kind
 * of answer releases the key.
 */
export const createIdempotencyMiddleware = (
  idempotency: OnboardingKit['idempotency'],
  options: IdempotencyMiddlewareOptions = {},
): RequestHandler => {
  const logger = options.logger ?? consoleHttpLogger;
  const principalKeyOf = options.principalKeyOf ?? defaultPrincipalKeyOf;
  const isStorable = options.isStorable ?? isStorableResponse;

  /** Records the answer about to be sent, or releases the key (`null`: an answer that is not JSON). */
  const settle = (req: Request, held: HeldClaim, response: StoredResponse | null): Promise<unknown> => {
    const recorded = held.recordedByCommand;
    if (recorded !== null && recorded.status === response?.status) return Promise.resolve();
    const write =
      response !== null && isStorable(response)
        ? idempotency.complete(held.ref, response)
        : idempotency.release(held.ref);
    return write.match(
      () => undefined,
      (failure) =>
        logger.error('onboarding-kit: could not settle an idempotency key', {
          method: req.method,
          path: req.originalUrl,
          key: held.ref.key,
          failure,
        }),
    );
  };

  /**
   * Renews the claim's lock while the request runs, so a command longer than the lock TTL is not
   * taken over by a retry (which would run it twice). Stops at settlement, or when the lock is lost.
   * It goes on after the caller hangs up: the command still runs, and a retry must wait for it.
   */
  const keepLocked = (req: Request, held: HeldClaim): (() => void) => {
    const timer = setInterval(() => {
      void idempotency.renew(held.ref).match(
        () => undefined,
        (failure) => {
          if (failure.type === 'IdempotencyRequestInProgress') clearInterval(timer);
          else
            logger.error('onboarding-kit: could not renew an idempotency lock', {
              method: req.method,
              path: req.originalUrl,
              key: held.ref.key,
              failure,
            });
        },
      );
    }, idempotency.lockRenewalIntervalMs);
    // A pending renewal never keeps the process alive.
    timer.unref?.();
    return () => clearInterval(timer);
  };

  const hold = (req: Request, res: Response, ref: IdempotencyClaimRef): void => {
    const held: HeldClaim = { ref, recordedByCommand: null, settled: false };
    heldClaims.set(req, held);
    const stopRenewing = keepLocked(req, held);
    const sendJson = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (held.settled) return sendJson(body);
      held.settled = true;
      stopRenewing();
      const send = () => sendJson(body);
      settle(req, held, { status: res.statusCode, body }).then(send, send);
      return res;
    };
    res.on('finish', () => {
      stopRenewing();
      if (held.settled) return;
      held.settled = true;
      void settle(req, held, null);
    });
  };

  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const parsed = parseIdempotencyKeyHeader(req);
    if (parsed.isErr()) {
      sendHttpFailure(req, res, parsed.error, logger);
      return;
    }
    const key = parsed.value;
    if (key === null) {
      next();
      return;
    }
    const caller = principalKeyOf(req);
    if (caller === undefined) {
      next(
        new Error('createIdempotencyMiddleware: no principal, mount an authentication middleware before it'),
      );
      return;
    }
    idempotency
      .claim({ scope: `${caller} ${req.method} ${routeOf(req)}`, key, owner: caller, body: req.body })
      .match(
        (decision) =>
          match(decision)
            .with({ type: 'Replay' }, ({ response }) => {
              res.status(response.status).set(IDEMPOTENT_REPLAYED_HEADER, 'true').json(response.body);
            })
            .with({ type: 'Claimed' }, ({ ref }) => {
              hold(req, res, ref);
              next();
            })
            .exhaustive(),
        (failure) => sendHttpFailure(req, res, failure, logger),
      )
      .catch(next);
  };
};
