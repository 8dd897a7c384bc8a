import type { ManagerRequestLimiter } from '@onboarding-kit/express';
import { okAsync, ResultAsync } from 'neverthrow';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { type DemoStartFailure, demoStartFailure } from './demo-start-failure.js';

/** Where the demo's PostgreSQL limiter counts (rate-limiter-flexible creates it when missing). */
export const DEMO_RATE_LIMIT_TABLE = 'onboarding_kit_demo_manager_request_rate';

const WINDOW_SECONDS = 60;

/**
 * MANAGER_RATE_LIMIT's limiter (null: none): `perMinute` requests a minute per manager. On
 * PostgreSQL its counts are in the demo's database, so every demo process on it shares each
 * manager's budget; in memory they are the process's own. One row per manager, upserted by each
 * request: nothing to purge, so the limiter runs no timer of its own.
 */
export const openManagerRateLimit = (
  perMinute: number | null,
  pool: pg.Pool | null,
): ResultAsync<ManagerRequestLimiter | undefined, DemoStartFailure> => {
  if (perMinute === null) return okAsync(undefined);
  if (pool === null) {
    return okAsync(new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS }));
  }
  return ResultAsync.fromPromise(
    new Promise<ManagerRequestLimiter>((resolve, reject) => {
      const limiter: RateLimiterPostgres = new RateLimiterPostgres(
        {
          storeClient: pool,
          tableName: DEMO_RATE_LIMIT_TABLE,
          points: perMinute,
          duration: WINDOW_SECONDS,
          clearExpiredByTimeout: false,
        },
        (error?: unknown) => (error === undefined || error === null ? resolve(limiter) : reject(error)),
      );
    }),
    demoStartFailure(`create the manager rate limit's table ${DEMO_RATE_LIMIT_TABLE} (MANAGER_RATE_LIMIT)`),
  );
};
