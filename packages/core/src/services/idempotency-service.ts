import { errAsync, okAsync } from 'neverthrow';
import { match } from 'ts-pattern';
import { idempotencyKeyReused, idempotencyQuotaExceeded, idempotencyRequestInProgress } from '../errors.js';
import { fingerprintRequestBody } from '../idempotency/request-fingerprint.js';
import type { IdempotencyDecision, IdempotencyService } from '../onboarding-kit.js';
import type { KitContext } from './kit-context.js';

const DEFAULT_PURGE_BATCH_SIZE = 500;

/** Decisions §5 on top of the IdempotencyStore port. */
export const createIdempotencyService = ({ ports, options, hashing }: KitContext): IdempotencyService => ({
  claim: ({ scope, key, owner, body }) => {
    const fingerprint = fingerprintRequestBody(body, hashing);
    // A body without a fingerprint is refused before anything is stored under the key.
    if (fingerprint.isErr()) return errAsync(fingerprint.error);
    const ref = { scope, key, token: ports.ids.uuid() };
    const limit = options.idempotencyMaxRecordsPerOwner;
    return ports.idempotency
      .claim({
        ...ref,
        owner,
        maxLiveRecordsPerOwner: limit,
        fingerprint: fingerprint.value,
        now: ports.clock.now(),
        lockTtlMs: options.idempotencyLockTtlMs,
        recordTtlMs: options.idempotencyRecordTtlMs,
      })
      .andThen((claim) =>
        match(claim)
          .with({ type: 'Claimed' }, () => okAsync<IdempotencyDecision>({ type: 'Claimed', ref }))
          .with({ type: 'Replay' }, ({ outcome }) =>
            okAsync<IdempotencyDecision>({ type: 'Replay', outcome }),
          )
          .with({ type: 'InProgress' }, () => errAsync(idempotencyRequestInProgress()))
          .with({ type: 'KeyReused' }, () => errAsync(idempotencyKeyReused()))
          .with({ type: 'QuotaExceeded' }, ({ retryAfterMs }) =>
            errAsync(idempotencyQuotaExceeded(limit ?? 0, Math.max(1, Math.ceil(retryAfterMs / 1000)))),
          )
          .exhaustive(),
      );
  },
  complete: (ref, outcome) =>
    ports.idempotency
      .complete(ref, outcome, ports.clock.now())
      .mapErr((error) => (error.type === 'IdempotencyLockLost' ? idempotencyRequestInProgress() : error)),
  release: (ref) => ports.idempotency.release(ref),
  renew: (ref) =>
    ports.idempotency
      .renew(ref, ports.clock.now())
      .mapErr((error) => (error.type === 'IdempotencyLockLost' ? idempotencyRequestInProgress() : error)),
  lockRenewalIntervalMs: Math.max(1, Math.floor(options.idempotencyLockTtlMs / 3)),
  maxLockRenewalMs: options.idempotencyLockMaxRenewalMs,
  purgeExpired: (batchSize = DEFAULT_PURGE_BATCH_SIZE) =>
    ports.idempotency.purgeExpired(
      new Date(ports.clock.now().getTime() - options.idempotencyRecordTtlMs),
      batchSize,
    ),
});
