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

/**
 * Writes the record `id` (deletes it, given none), keeping its owner's count of stored records: a
 * claim counts live records only once the owner stores as many as its quota, as PostgreSQL's
 * `idempotency_owner_records` spares the count.
 */
const putRecord = (tables: Tables, id: string, record?: IdempotencyRecord): void => {
  const count = (owner: string | undefined, change: number) => {
    if (owner !== undefined)
      tables.idempotencyOwners.set(owner, (tables.idempotencyOwners.get(owner) ?? 0) + change);
  };
  count(tables.idempotency.get(id)?.owner, -1);
  count(record?.owner, 1);
  if (record === undefined) tables.idempotency.delete(id);
  else tables.idempotency.set(id, frozenClone(record));
};

const updateHeld = (access: TableAccess, ref: IdempotencyClaimRef, change: Partial<IdempotencyRecord>) =>
  access.write((tables) => {
    const id = idempotencyRecordId(ref.scope, ref.key);
    const record = tables.idempotency.get(id);
    if (record === undefined || record.token !== ref.token || record.outcome !== null) {
      const lost: IdempotencyLockLost = { type: 'IdempotencyLockLost', scope: ref.scope, key: ref.key };
      return err(lost);
    }
    putRecord(tables, id, { ...record, ...change });
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
      const claimed = () => {
        putRecord(tables, id, fresh);
        return ok<IdempotencyClaim>({ type: 'Claimed' });
      };
      if (record === undefined) {
        const limit = request.maxLiveRecordsPerOwner;
        if (limit === null || (tables.idempotencyOwners.get(owner) ?? 0) < limit) return claimed();
        // A record is live while `now - claimedAt <= recordTtlMs`.
        let [live, oldest] = [0, now];
        for (const stored of tables.idempotency.values()) {
          if (stored.owner !== owner || now - stored.claimedAt > request.recordTtlMs) continue;
          live += 1;
          oldest = Math.min(oldest, stored.claimedAt);
        }
        if (live < limit) return claimed();
        // A record is expired once strictly older than the TTL: 1 ms after it reaches it.
        return ok<IdempotencyClaim>({
          type: 'QuotaExceeded',
          retryAfterMs: oldest + request.recordTtlMs + 1 - now,
        });
      }
      if (now - record.claimedAt > request.recordTtlMs) return claimed();
      // The fingerprint is checked first: reusing a key for another request is a caller's bug
      // whether or not the first request still runs.
      // A redacted record's fingerprint is no digest: it matches every request.
      if (record.fingerprint !== request.fingerprint && record.fingerprint !== REDACTED_FINGERPRINT)
        return ok<IdempotencyClaim>({ type: 'KeyReused' });
      if (record.outcome !== null) return ok<IdempotencyClaim>({ type: 'Replay', outcome: record.outcome });
      if (now - record.lockedAt > request.lockTtlMs) return claimed();
      return ok<IdempotencyClaim>({ type: 'InProgress' });
    }),
  complete: (ref, outcome) => updateHeld(access, ref, { outcome }),
  renew: (ref, now) => updateHeld(access, ref, { lockedAt: now.getTime() }),
  release: (ref) =>
    access.write((tables) => {
      const id = idempotencyRecordId(ref.scope, ref.key);
      const record = tables.idempotency.get(id);
      if (record?.token === ref.token && record.outcome === null) putRecord(tables, id);
      return ok(undefined);
    }),
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
        putRecord(tables, idempotencyRecordId(record.scope, record.key), {
          ...record,
          fingerprint: REDACTED_FINGERPRINT,
          outcome,
        });
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
          for (const id of ids) putRecord(tables, id);
          return ok(ids.length);
        })
        .andThen((count) => (count < size ? ok(purged + count) : purgeFrom(purged + count)));
    return purgeFrom(0);
  },
});
