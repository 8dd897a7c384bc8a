import { storageUnavailable } from '@onboarding-kit/core/adapter';
import type { RequestHandler } from 'express';
import { authenticatedPrincipal } from './authentication.js';
import { type ErrorReporting, sendHttpFailure } from './error-response.js';
import { requestRateLimited } from './http-error.js';

/**
 * The limiter of the per-manager request rate: `consume(key)` takes one point of the key's budget,
 * resolving while there is one and rejecting with `{ msBeforeNext }` once there is none, or with an
 * Error when its store failed. rate-limiter-flexible's limiters fit as they are; with a shared store
 * (`RateLimiterPostgres` on the kit's database, `RateLimiterRedis`) the limit holds across every
 * process, where a limit kept in each process would multiply with them.
 */
export type ManagerRequestLimiter = {
  consume(key: string, points?: number): Promise<unknown>;
};

/** Its key for a manager: one budget per manager, whatever API key or process it calls through. */
export const managerRateLimitKey = (managerId: string): string => `manager:${managerId}`;

const msBeforeNextOf = (rejection: unknown): number | null => {
  if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) return null;
  const ms = (rejection as { readonly msBeforeNext?: unknown }).msBeforeNext;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
};

/**
 * After authentication, one point of the manager's budget per request: 429 `TOO_MANY_REQUESTS` with
 * `Retry-After` once it is spent, 503 `STORAGE_UNAVAILABLE` when the limiter's store fails (give the
 * limiter an `insuranceLimiter` to go on per process instead).
 */
export const createManagerRateLimitMiddleware = (
  limiter: ManagerRequestLimiter,
  reporting: ErrorReporting,
): RequestHandler => {
  return (req, res, next) => {
    const principal = authenticatedPrincipal(req);
    if (principal?.kind !== 'manager') {
      next();
      return;
    }
    limiter.consume(managerRateLimitKey(principal.managerId)).then(
      () => next(),
      (rejection: unknown) => {
        const ms = msBeforeNextOf(rejection);
        sendHttpFailure(
          req,
          res,
          ms === null
            ? storageUnavailable('manager-rate-limit')(rejection)
            : requestRateLimited(Math.max(1, Math.ceil(ms / 1000))),
          reporting,
        );
      },
    );
  };
};
