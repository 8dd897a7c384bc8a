import type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyClaimRequest,
  IdempotencyLockLost,
  IdempotencyStore,
  RecordedOutcome,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import {
  type IdempotencyRecord,
  idempotencyRecordId,
  type MemoryTables,
  type TableAccess,
} from './memory-database.js';

const lockLost = ({ scope, key }: IdempotencyClaimRef): IdempotencyLockLost => ({
  type: 'IdempotencyLockLost',
  scope,
  key,
});

/**
 * Records a completion if `ref` still holds the key. Shared by the store and the transactional
 * stores, where it is staged with the rest of the transaction.
 */
export const completeIdempotencyClaim = (
  access: TableAccess,
  ref: IdempotencyClaimRef,
  outcome: RecordedOutcome,
) =>
  access.write((tables) => {
    const id = idempotencyRecordId(ref.scope, ref.key);
    const record = tables.idempotency.get(id);
    if (record === undefined || record.token !== ref.token || record.outcome !== null)
      return err(lockLost(ref));
    tables.idempotency.set(id, { ...record, outcome });
    return ok(undefined);
  });

/**
 * `QuotaExceeded` when the owner already holds `maxLiveRecordsPerOwner` live records: nothing to
 * scan while the owner holds fewer records than that at all (the table keeps them grouped by
 * owner), otherwise a scan of that owner's records up to the bound.
 */
const ownerQuotaRefusal = (
  tables: MemoryTables,
  request: IdempotencyClaimRequest,
): IdempotencyClaim | null => {
  const limit = request.maxLiveRecordsPerOwner;
  if (limit === null) return null;
  const now = request.now.getTime();
  const isLive = (record: IdempotencyRecord) =>
    record.owner === request.owner && now - record.claimedAt <= request.recordTtlMs;
  if (!tables.idempotency.hasAtLeastWithin('byOwner', request.owner, isLive, limit)) return null;
  const oldest = tables.idempotency
    .selectWithin('byOwner', request.owner, isLive)
    .reduce((earliest, record) => Math.min(earliest, record.claimedAt), now);
  // A record is expired once strictly older than the TTL: 1 ms after it reaches it.
  return { type: 'QuotaExceeded', retryAfterMs: oldest + request.recordTtlMs + 1 - now };
};

/**
 * Idempotency records judged by the timestamps core passes in (never by the machine clock), so a
 * controllable clock expires them. Every operation is one serialized write, hence atomic.
 */
export const createMemoryIdempotencyStore = (access: TableAccess): IdempotencyStore => ({
  claim: (request) =>
    access.write((tables) => {
      const id = idempotencyRecordId(request.scope, request.key);
      const now = request.now.getTime();
      const record = tables.idempotency.get(id);
      const fresh: IdempotencyRecord = {
        owner: request.owner,
        scope: request.scope,
        key: request.key,
        fingerprint: request.fingerprint,
        token: request.token,
        claimedAt: now,
        lockedAt: now,
        outcome: null,
      };
      const claimed: IdempotencyClaim = { type: 'Claimed' };
      if (record === undefined) {
        const quotaRefusal = ownerQuotaRefusal(tables, request);
        if (quotaRefusal !== null) return ok(quotaRefusal);
        tables.idempotency.set(id, fresh);
        return ok(claimed);
      }
      if (now - record.claimedAt > request.recordTtlMs) {
        tables.idempotency.set(id, fresh);
        return ok(claimed);
      }
      // The fingerprint is checked first: reusing a key for another request is a caller's bug
      // whether or not the first request still runs.
      if (record.fingerprint !== request.fingerprint) return ok<IdempotencyClaim>({ type: 'KeyReused' });
      if (record.outcome !== null) return ok<IdempotencyClaim>({ type: 'Replay', outcome: record.outcome });
      if (now - record.lockedAt > request.lockTtlMs) {
        tables.idempotency.set(id, fresh);
        return ok(claimed);
      }
      return ok<IdempotencyClaim>({ type: 'InProgress' });
    }),
  complete: (ref, outcome) => completeIdempotencyClaim(access, ref, outcome),
  renew: (ref, now) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record === undefined || record.token !== ref.token || record.outcome !== null)
        return err(lockLost(ref));
      tables.idempotency.set(id, { ...record, lockedAt: now.getTime() });
      return ok(undefined);
    }),
  release: (ref) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record !== undefined && record.token === ref.token && record.outcome === null) {
        tables.idempotency.delete(id);
      }
      return ok(undefined);
    }),
  purgeExpired: (olderThan, batchSize) => {
    const cutoff = olderThan.getTime();
    const size = Math.max(1, Math.floor(batchSize));
    const purgeBatch = (tables: MemoryTables) => {
      const ids = tables.idempotency.selectKeys((record) => record.claimedAt < cutoff).slice(0, size);
      for (const id of ids) tables.idempotency.delete(id);
      return ok(ids.length);
    };
    // One batch per write, so other requests get the lock between batches, as with a database.
    const purgeFrom = (purged: number): ReturnType<IdempotencyStore['purgeExpired']> =>
      access
        .write(purgeBatch)
        .andThen((count) => (count < size ? ok(purged + count) : purgeFrom(purged + count)));
    return purgeFrom(0);
  },
});
