import type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyClaimRequest,
  IdempotencyLockLost,
  IdempotencyStore,
  RecordedOutcome,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import {
  entries,
  type IdempotencyRecord,
  idempotencyRecordId,
  type MemoryTables,
  type OrderKey,
} from './memory-tables.js';

const ownerKey = (record: IdempotencyRecord, id: string): OrderKey => [record.owner, record.claimedAt, id];

/** Stores `record` under `id`, keeping the owner and age indexes in step. */
const putRecord = (tables: MemoryTables, id: string, record: IdempotencyRecord): void => {
  const previous = tables.idempotency.get(id);
  if (previous !== undefined) {
    tables.idempotencyByOwner = tables.idempotencyByOwner.remove(ownerKey(previous, id));
    tables.idempotencyByAge = tables.idempotencyByAge.remove([previous.claimedAt, id]);
  }
  tables.idempotency.set(id, frozenClone(record));
  tables.idempotencyByOwner = tables.idempotencyByOwner.insert(ownerKey(record, id), id);
  tables.idempotencyByAge = tables.idempotencyByAge.insert([record.claimedAt, id], id);
};

const removeRecord = (tables: MemoryTables, id: string): void => {
  const previous = tables.idempotency.get(id);
  if (previous === undefined) return;
  tables.idempotencyByOwner = tables.idempotencyByOwner.remove(ownerKey(previous, id));
  tables.idempotencyByAge = tables.idempotencyByAge.remove([previous.claimedAt, id]);
  tables.idempotency.delete(id);
};

const lockLost = ({ scope, key }: IdempotencyClaimRef): IdempotencyLockLost => ({
  type: 'IdempotencyLockLost',
  scope,
  key,
});

/**
 * Records a completion if `ref` still holds the key. Shared by the store and the transactional
 * stores, where it commits or rolls back with the rest of the transaction.
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
    putRecord(tables, id, { ...record, outcome });
    return ok(undefined);
  });

/**
 * `QuotaExceeded` when the owner already holds `maxLiveRecordsPerOwner` live records. The owner
 * index sorts an owner's records by claim, and its tree counts its nodes: the live ones are those
 * between the first claimed within the TTL and the owner's end, counted in O(log n).
 */
const ownerQuotaRefusal = (
  tables: MemoryTables,
  request: IdempotencyClaimRequest,
): IdempotencyClaim | null => {
  const limit = request.maxLiveRecordsPerOwner;
  if (limit === null) return null;
  const now = request.now.getTime();
  // A record is live while `now - claimedAt <= recordTtlMs`.
  const oldestLive = tables.idempotencyByOwner.ge([request.owner, now - request.recordTtlMs]);
  const ownerEnd = tables.idempotencyByOwner.ge([request.owner, Number.POSITIVE_INFINITY]);
  if (ownerEnd.index - oldestLive.index < limit) return null;
  const oldest = oldestLive.key?.[1] as number;
  // A record is expired once strictly older than the TTL: 1 ms after it reaches it.
  return { type: 'QuotaExceeded', retryAfterMs: oldest + request.recordTtlMs + 1 - now };
};

/**
 * Idempotency records judged by the timestamps core passes in (never by the machine clock), so a
 * controllable clock expires them. Every operation is one serialized write, hence atomic.
 */
/** Rewrites the completed records whose outcome mentions `clientId` (redaction of the client); they stay. */
export const rewriteClientIdempotencyRecords = (
  access: TableAccess,
  clientId: string,
  rewrite: (outcome: RecordedOutcome) => RecordedOutcome,
) =>
  access.write((tables) => {
    const ids: string[] = [];
    for (const [, id] of entries(tables.idempotencyByAge)) {
      const outcome = tables.idempotency.get(id)?.outcome;
      if (outcome != null && JSON.stringify(outcome).includes(clientId)) ids.push(id);
    }
    for (const id of ids) {
      const record = tables.idempotency.get(id);
      if (record?.outcome != null) putRecord(tables, id, { ...record, outcome: rewrite(record.outcome) });
    }
    return ok(undefined);
  });

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
        putRecord(tables, id, fresh);
        return ok(claimed);
      }
      if (now - record.claimedAt > request.recordTtlMs) {
        putRecord(tables, id, fresh);
        return ok(claimed);
      }
      // The fingerprint is checked first: reusing a key for another request is a caller's bug
      // whether or not the first request still runs.
      if (record.fingerprint !== request.fingerprint) return ok<IdempotencyClaim>({ type: 'KeyReused' });
      if (record.outcome !== null) return ok<IdempotencyClaim>({ type: 'Replay', outcome: record.outcome });
      if (now - record.lockedAt > request.lockTtlMs) {
        putRecord(tables, id, fresh);
        return ok(claimed);
      }
      return ok<IdempotencyClaim>({ type: 'InProgress' });
    }),
  complete: (ref, outcome) => completeIdempotencyClaim(access, ref, outcome),
  rewriteForClient: (clientId, rewrite) => rewriteClientIdempotencyRecords(access, clientId, rewrite),
  renew: (ref, now) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record === undefined || record.token !== ref.token || record.outcome !== null)
        return err(lockLost(ref));
      putRecord(tables, id, { ...record, lockedAt: now.getTime() });
      return ok(undefined);
    }),
  release: (ref) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record !== undefined && record.token === ref.token && record.outcome === null) {
        removeRecord(tables, id);
      }
      return ok(undefined);
    }),
  purgeExpired: (olderThan, batchSize) => {
    const cutoff = olderThan.getTime();
    const size = Math.max(1, Math.floor(batchSize));
    const purgeBatch = (tables: MemoryTables) => {
      const ids: string[] = [];
      for (const [[claimedAt], id] of entries(tables.idempotencyByAge)) {
        if (ids.length >= size || (claimedAt as number) >= cutoff) break;
        ids.push(id);
      }
      for (const id of ids) removeRecord(tables, id);
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
