import type { ResultAsync } from 'neverthrow';
import { errAsync, okAsync } from 'neverthrow';
import { match } from 'ts-pattern';
import type { DomainError } from '../errors.js';
import {
  idempotencyKeyReused,
  idempotencyQuotaExceeded,
  idempotencyRequestInProgress,
  lockLostAsInProgress,
} from '../errors.js';
import { fingerprintRequestBody } from '../idempotency/request-fingerprint.js';
import type { KitContext } from '../kit-context.js';
import type { IdempotencyClaimRef, RecordedOutcome } from '../ports/idempotency-store.js';

/** What an incoming idempotent request may do. */
export type IdempotencyDecision =
  | { readonly type: 'Claimed'; readonly ref: IdempotencyClaimRef }
  | { readonly type: 'Replay'; readonly outcome: RecordedOutcome };

export type IdempotencyClaimInput = {
  /** Principal + method + route with its path parameters. */
  readonly scope: string;
  /** The `Idempotency-Key` value, already parsed. */
  readonly key: string;
  /** The caller's `principalKey`: whose quota of live records the claim counts against. */
  readonly owner: string;
  /** The parsed request body; its canonical JSON is fingerprinted. */
  readonly body: unknown;
};

export interface IdempotencyService {
  /** Claims the key, or answers with the replay, `IdempotencyRequestInProgress` or `IdempotencyKeyReused`. */
  claim(input: IdempotencyClaimInput): ResultAsync<IdempotencyDecision, DomainError>;
  /**
   * Records a host route's answer (the binding's middleware does, for routes that are not kit
   * commands: kit commands record their own outcome).
   */
  complete(ref: IdempotencyClaimRef, outcome: RecordedOutcome): ResultAsync<void, DomainError>;
  release(ref: IdempotencyClaimRef): ResultAsync<void, DomainError>;
  /**
   * Keeps a running claim's lock: call it every `lockRenewalIntervalMs` while the command runs (the
   * Express binding does). `IdempotencyRequestInProgress` when the lock was already lost.
   */
  renew(ref: IdempotencyClaimRef): ResultAsync<void, DomainError>;
  /** A third of the lock TTL: two renewals may fail before another request could take the key over. */
  readonly lockRenewalIntervalMs: number;
  /** How long a running request's lock is renewed at most (option `idempotencyLockMaxRenewalMs`). */
  readonly maxLockRenewalMs: number;
  /** Deletes expired records in batches; resolves to how many were deleted. */
  purgeExpired(batchSize?: number): ResultAsync<number, DomainError>;
}

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
    ports.idempotency.complete(ref, outcome, ports.clock.now()).mapErr(lockLostAsInProgress),
  release: (ref) => ports.idempotency.release(ref),
  renew: (ref) => ports.idempotency.renew(ref, ports.clock.now()).mapErr(lockLostAsInProgress),
  lockRenewalIntervalMs: Math.max(1, Math.floor(options.idempotencyLockTtlMs / 3)),
  maxLockRenewalMs: options.idempotencyLockMaxRenewalMs,
  purgeExpired: (batchSize = DEFAULT_PURGE_BATCH_SIZE) =>
    ports.idempotency.purgeExpired(
      new Date(ports.clock.now().getTime() - options.idempotencyRecordTtlMs),
      batchSize,
    ),
});
