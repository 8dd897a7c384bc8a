import { type OnboardingKit, principalKey } from '@onboarding-kit/core';
import type { RecordedOutcome } from '@onboarding-kit/core/adapter';
import type { Request, RequestHandler, Response } from 'express';
import { match } from 'ts-pattern';
import { authenticatedPrincipal } from './authentication.js';
import {
  type ErrorReporting,
  type ErrorReportingOptions,
  errorReporting,
  sendHttpFailure,
} from './error-response.js';
import { internal } from './http-error.js';
import { claimIdempotencyKey, renewWhileRunning } from './idempotency-claim.js';

export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export type IdempotencyMiddlewareOptions = ErrorReportingOptions & {
  /**
   * Names the caller in the scope. Default: `principalKey` of the principal resolved by this
   * package's authentication middleware, which must then run first.
   */
  readonly principalKeyOf?: (req: Request) => string | undefined;
  /** Which answers are recorded and replayed; default `isStorableResponse` (decisions §5). */
  readonly isStorable?: (response: { readonly status: number; readonly body: unknown }) => boolean;
};

const errorCodeOf = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'code' in body ? body.code : undefined;

/**
 * Decisions §5 for a host route's answer: 2xx and the business refusals decided once the route ran
 * (404, 409 INVALID_STATUS) are recorded; anything else (400, 401, 403, 413, 415, 429, 409 in
 * progress, 5xx) releases the key so a corrected retry runs anew. (The kit's own routes record the
 * domain outcome of their command instead: see core's `runCommand`.)
 */
export const isStorableResponse = ({
  status,
  body,
}: {
  readonly status: number;
  readonly body: unknown;
}): boolean =>
  (status >= 200 && status < 300) ||
  status === 404 ||
  (status === 409 && errorCodeOf(body) === 'INVALID_STATUS');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const defaultPrincipalKeyOf = (req: Request): string | undefined => {
  const principal = authenticatedPrincipal(req);
  return principal === undefined ? undefined : principalKey(principal);
};

/** Sends a replayed host-route answer as it was first sent, marked `Idempotent-Replayed: true`. */
const sendReplayedResponse = (
  req: Request,
  res: Response,
  outcome: RecordedOutcome,
  reporting: ErrorReporting,
) =>
  match(outcome)
    .with({ kind: 'response' }, ({ status, body }) => {
      res.status(status).set(IDEMPOTENT_REPLAYED_HEADER, 'true').json(body);
    })
    .with({ kind: 'command' }, () =>
      sendHttpFailure(
        req,
        res,
        internal(new Error('a kit command outcome replayed on a host route')),
        reporting,
      ),
    )
    .exhaustive();

/**
 * Decisions §5 as a middleware for a host's own critical routes (the spec's `POST /transactions`).
 * It runs after authentication and body parsing (the fingerprint is the parsed body's canonical
 * JSON). A claimed request's JSON answer is recorded (or the key released) before it is sent, so a
 * caller who saw an answer always gets it replayed; any other kind of answer releases the key.
 * While the route runs, its lock is renewed.
 */
export const createIdempotencyMiddleware = (
  idempotency: OnboardingKit['idempotency'],
  options: IdempotencyMiddlewareOptions = {},
): RequestHandler => {
  const reporting = errorReporting(options);
  const { logger } = reporting;
  const principalKeyOf = options.principalKeyOf ?? defaultPrincipalKeyOf;
  const isStorable = options.isStorable ?? isStorableResponse;

  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) {
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
    claimIdempotencyKey(idempotency, req, caller)
      .match(
        (keyed) => {
          if (keyed.type === 'Unkeyed') {
            next();
            return;
          }
          if (keyed.type === 'Replay') {
            sendReplayedResponse(req, res, keyed.outcome, reporting);
            return;
          }
          const { ref } = keyed;
          const stopRenewing = renewWhileRunning(idempotency, ref, req, logger);
          let settled = false;
          const logFailure = (failure: unknown) =>
            logger.error('onboarding-kit: could not settle an idempotency key', {
              method: req.method,
              path: req.originalUrl,
              key: ref.key,
              failure,
            });
          const sendJson = res.json.bind(res);
          res.json = (body?: unknown) => {
            if (settled) return sendJson(body);
            settled = true;
            stopRenewing();
            const response = { status: res.statusCode, body };
            const send = () => sendJson(body);
            (isStorable(response)
              ? idempotency.complete(ref, { kind: 'response', ...response })
              : idempotency.release(ref)
            )
              .match(() => undefined, logFailure)
              .then(send, send);
            return res;
          };
          res.on('finish', () => {
            stopRenewing();
            if (settled) return;
            settled = true;
            // An answer that is not JSON is not recorded: the key is free again.
            void idempotency.release(ref).match(() => undefined, logFailure);
          });
          next();
        },
        (failure) => sendHttpFailure(req, res, failure, reporting),
      )
      .catch(next);
  };
};
