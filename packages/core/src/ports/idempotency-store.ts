import type { ResultAsync } from 'neverthrow';
import type { IdempotencyLockLost, RecordableRefusal, StorageUnavailable } from '../errors.js';

/**
 * The fingerprint of a record whose client was redacted (decisions §11): no digest of anything (a
 * SHA-256 in hex is never this text), so the record no longer confirms a guess of the body it was
 * claimed with. Such a record matches every request's fingerprint: a retry of its key, with any
 * body, replays its (rewritten) outcome, takes it over once abandoned, or waits while it runs.
 */
export const REDACTED_FINGERPRINT = '[redacted]';

/**
 * What a completed key replays; stores keep it as opaque JSON.
 * - `command`: a kit command's outcome in domain terms (its value, or a recordable refusal), written
 *   by core in the command's own transaction. The HTTP binding maps it, fresh or replayed alike.
 * - `response`: a host route's answer as the binding's middleware sent it (status and JSON body).
 */
export type RecordedOutcome =
  | { readonly kind: 'command'; readonly ok: true; readonly value: unknown }
  | { readonly kind: 'command'; readonly ok: false; readonly error: RecordableRefusal }
  | { readonly kind: 'response'; readonly status: number; readonly body: unknown };

/** Names one claimed key; `token` fences the claim so a holder whose lock was taken over cannot complete. */
export type IdempotencyClaimRef = { readonly scope: string; readonly key: string; readonly token: string };

export type IdempotencyClaimRequest = IdempotencyClaimRef & {
  /** Who claims (a `principalKey`): the quota below counts this owner's live records. */
  readonly owner: string;
  /**
   * A claim that would add a record while the owner already holds this many live ones (created
   * within `recordTtlMs`) is `QuotaExceeded`; `null` for no bound. A key that already has a record
   * (a replay, a takeover) is never refused by the quota. Concurrent claims may overshoot it by
   * their number: it bounds storage, it is not a rate limit.
   */
  readonly maxLiveRecordsPerOwner: number | null;
  /** The request body's digest; a stored `REDACTED_FINGERPRINT` matches every one of them. */
  readonly fingerprint: string;
  readonly now: Date;
  /** An in-progress record older than this is a crashed holder's and may be taken over. */
  readonly lockTtlMs: number;
  /** A record older than this is expired: it is ignored and replaced by a new claim. */
  readonly recordTtlMs: number;
};

export type IdempotencyClaim =
  | { readonly type: 'Claimed' }
  | { readonly type: 'Replay'; readonly outcome: RecordedOutcome }
  | { readonly type: 'InProgress' }
  | { readonly type: 'KeyReused' }
  /** `retryAfterMs`: when the owner's oldest live record expires and frees a place. */
  | { readonly type: 'QuotaExceeded'; readonly retryAfterMs: number };

/** Idempotency records (decisions §5), one per scope + key. */
export interface IdempotencyStore {
  /** Atomically: claim a free, expired or abandoned key, or report what holds it. */
  claim(request: IdempotencyClaimRequest): ResultAsync<IdempotencyClaim, StorageUnavailable>;
  /** Records the outcome of a claim this token holds. */
  complete(
    ref: IdempotencyClaimRef,
    outcome: RecordedOutcome,
    now: Date,
  ): ResultAsync<void, StorageUnavailable | IdempotencyLockLost>;
  /**
   * Extends the lock of a claim this token still holds and has not completed: its lock TTL counts
   * from `now` again, so a command that runs longer than the TTL is not taken over while it runs.
   */
  renew(ref: IdempotencyClaimRef, now: Date): ResultAsync<void, StorageUnavailable | IdempotencyLockLost>;
  /** Frees a claim this token holds (the outcome is not stored): a retry runs anew. */
  release(ref: IdempotencyClaimRef): ResultAsync<void, StorageUnavailable>;
  /** Deletes records created before `olderThan`, `batchSize` at a time; resolves to how many went. */
  purgeExpired(olderThan: Date, batchSize: number): ResultAsync<number, StorageUnavailable>;
  /**
   * Redaction of a client (decisions §11): every record whose scope or outcome names `clientId`
   * (compared without regard to case: ids come from paths as typed) loses what it kept of the
   * request. Its fingerprint becomes `REDACTED_FINGERPRINT`, and a completed one's outcome becomes
   * `rewrite(outcome)`, in one atomic write. The scope names the client for every request on its
   * path (a resubmission, a terms signature, a review-console form, whatever its outcome, running
   * or not) and every request of the client itself (`client:<id>`); the outcome names it for a
   * create. The record stays, with its key and age: a retry of its key, whatever its body, replays
   * the rewritten answer and never runs its command again within the record's lifetime (it can no
   * longer tell a retry from a reuse; its redacted answer revives nothing). Running it again on the
   * same client rewrites the same records again. `documentNames` (the client's document keys and the
   * file names it uploaded them under) names more records: those whose completed outcome holds one
   * of them as a whole JSON string (`"passport.pdf"`, not inside a longer one), whoever's they are:
   * the answers of upload-link and download-link batches, which name files, not the client.
   */
  rewriteForClient(
    clientId: string,
    rewrite: (outcome: RecordedOutcome) => RecordedOutcome,
    documentNames?: readonly string[],
  ): ResultAsync<void, StorageUnavailable>;
}
