import {
  type IdempotencyClaim,
  type IdempotencyClaimRef,
  type IdempotencyLockLost,
  type IdempotencyStore,
  REDACTED_FINGERPRINT,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import {
  type IdempotencyRecord,
  idempotencyRecordId,
  type TableAccess,
  type Tables,
} from './memory-database.js';

/** The index of the first of `ids` (sorted by claim) claimed at `since` (ms) or later. */
const firstClaimedFrom = (tables: Tables, ids: readonly string[], since: number): number => {
  let [low, high] = [0, ids.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((tables.idempotency.get(ids[middle] as string)?.claimedAt ?? 0) < since) low = middle + 1;
    else high = middle;
  }
  return low;
};

const removeRecords = (tables: Tables, ids: readonly string[]): void => {
  const removed = new Set(ids);
  for (const owner of new Set(ids.flatMap((id) => tables.idempotency.get(id)?.owner ?? []))) {
    tables.idempotencyOwners.set(
      owner,
      (tables.idempotencyOwners.get(owner) ?? []).filter((id) => !removed.has(id)),
    );
  }
  for (const id of ids) tables.idempotency.delete(id);
};

/** Stores a new claim of `id`, in its place in its owner's claims (by `claimedAt`). */
const putClaim = (tables: Tables, id: string, record: IdempotencyRecord): IdempotencyClaim => {
  removeRecords(tables, [id]);
  const ids = [...(tables.idempotencyOwners.get(record.owner) ?? [])];
  ids.splice(firstClaimedFrom(tables, ids, record.claimedAt + 1), 0, id);
  tables.idempotencyOwners.set(record.owner, ids);
  tables.idempotency.set(id, frozenClone(record));
  return { type: 'Claimed' };
};

/** Rewrites the record `ref` still holds, or answers `IdempotencyLockLost`. */
const updateHeld = (access: TableAccess, ref: IdempotencyClaimRef, change: Partial<IdempotencyRecord>) =>
  access.write((tables) => {
    const id = idempotencyRecordId(ref.scope, ref.key);
    const record = tables.idempotency.get(id);
    if (record === undefined || record.token !== ref.token || record.outcome !== null) {
      const lost: IdempotencyLockLost = { type: 'IdempotencyLockLost', scope: ref.scope, key: ref.key };
      return err(lost);
    }
    tables.idempotency.set(id, frozenClone({ ...record, ...change }));
    return ok(undefined);
  });

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
      const { owner, scope, key, fingerprint, token } = request;
      const fresh = { owner, scope, key, fingerprint, token, claimedAt: now, lockedAt: now, outcome: null };
      if (record === undefined) {
        const ids = tables.idempotencyOwners.get(owner) ?? [];
        // A record is live while `now - claimedAt <= recordTtlMs`: the last ones of its owner.
        const oldestLive = firstClaimedFrom(tables, ids, now - request.recordTtlMs);
        const limit = request.maxLiveRecordsPerOwner;
        if (limit === null || ids.length - oldestLive < limit) return ok(putClaim(tables, id, fresh));
        const oldest = tables.idempotency.get(ids[oldestLive] as string)?.claimedAt ?? now;
        // A record is expired once strictly older than the TTL: 1 ms after it reaches it.
        return ok<IdempotencyClaim>({
          type: 'QuotaExceeded',
          retryAfterMs: oldest + request.recordTtlMs + 1 - now,
        });
      }
      if (now - record.claimedAt > request.recordTtlMs) return ok(putClaim(tables, id, fresh));
      // The fingerprint is checked first: reusing a key for another request is a caller's bug
      // whether or not the first request still runs.
      // A redacted record's fingerprint is no digest: it matches every request.
      if (record.fingerprint !== request.fingerprint && record.fingerprint !== REDACTED_FINGERPRINT)
        return ok<IdempotencyClaim>({ type: 'KeyReused' });
      if (record.outcome !== null) return ok<IdempotencyClaim>({ type: 'Replay', outcome: record.outcome });
      if (now - record.lockedAt > request.lockTtlMs) return ok(putClaim(tables, id, fresh));
      return ok<IdempotencyClaim>({ type: 'InProgress' });
    }),
  complete: (ref, outcome) => updateHeld(access, ref, { outcome }),
  renew: (ref, now) => updateHeld(access, ref, { lockedAt: now.getTime() }),
  release: (ref) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record?.token === ref.token && record.outcome === null) removeRecords(tables, [id]);
      return ok(undefined);
    }),
  /** Redacts the records whose scope or outcome names `clientId` (redaction of the client); they stay. */
  rewriteForClient: (clientId, rewrite, documentNames = []) =>
    access.write((tables) => {
      const id = clientId.toLowerCase();
      const quoted = documentNames.map((name) => JSON.stringify(name));
      for (const record of [...tables.idempotency.values()]) {
        const text = record.outcome === null ? '' : JSON.stringify(record.outcome);
        const named =
          record.scope.toLowerCase().includes(id) ||
          text.toLowerCase().includes(id) ||
          quoted.some((name) => text.includes(name));
        if (!named) continue;
        const outcome = record.outcome === null ? null : rewrite(record.outcome);
        tables.idempotency.set(
          idempotencyRecordId(record.scope, record.key),
          frozenClone({ ...record, fingerprint: REDACTED_FINGERPRINT, outcome }),
        );
      }
      return ok(undefined);
    }),
  purgeExpired: (olderThan, batchSize) => {
    const size = Math.max(1, Math.floor(batchSize));
    // One batch per write, so other requests get the lock between batches, as with a database.
    const purgeFrom = (purged: number): ReturnType<IdempotencyStore['purgeExpired']> =>
      access
        .write((tables) => {
          const ids: string[] = [];
          for (const record of tables.idempotency.values()) {
            if (ids.length >= size) break;
            if (record.claimedAt < olderThan.getTime())
              ids.push(idempotencyRecordId(record.scope, record.key));
          }
          removeRecords(tables, ids);
          return ok(ids.length);
        })
        .andThen((count) => (count < size ? ok(purged + count) : purgeFrom(purged + count)));
    return purgeFrom(0);
  },
});
