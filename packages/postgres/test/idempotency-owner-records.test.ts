import { randomUUID } from 'node:crypto';
import type { IdempotencyClaimRequest } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * `idempotency_owner_records`: each owner's stored idempotency records, kept by triggers, let a claim skip the
 * count of the owner's live records while it is below its quota. The sum must follow every change
 * to the records (never fall below them: the quota would then let too many through), and the count
 * must not run when the sum answers.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const recordTtlMs = 86_400_000;
const start = Date.UTC(2030, 0, 1);

const claimOf = (
  owner: string,
  key: string,
  overrides: Partial<IdempotencyClaimRequest> = {},
): IdempotencyClaimRequest => ({
  scope: `${owner} POST /manager/v1/clients/individuals`,
  owner,
  key,
  fingerprint: 'f',
  token: randomUUID(),
  now: new Date(start),
  lockTtlMs: 60_000,
  recordTtlMs,
  maxLiveRecordsPerOwner: 100,
  ...overrides,
});

/** For each owner: [the triggers' sum, the records actually stored]. */
const sumsAndCounts = async (owners: readonly string[]) => {
  const t = database.tables;
  const { rows } = await database.pool.query<{ owner: string; stored: string; counted: string }>(
    `SELECT o.owner,
       (SELECT coalesce(sum(records), 0) FROM ${t.idempotencyOwnerRecords} WHERE owner = o.owner) AS stored,
       (SELECT count(*) FROM ${t.idempotency} WHERE owner = o.owner) AS counted
     FROM unnest($1::text[]) AS o(owner)`,
    [owners],
  );
  return byOwner(rows.map((row) => [row.owner, Number(row.stored), Number(row.counted)] as const));
};

/** Rows sorted by owner in code (not by the server's collation). */
const byOwner = (rows: ReadonlyArray<readonly [string, number, number]>) =>
  [...rows].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));

describe('idempotency_owner_records (kept by triggers)', () => {
  it('follows inserts, replays, takeovers, releases, purges, rollbacks, moves and truncation', async () => {
    const { idempotency } = database.adapters;
    const t = database.tables;
    const [a, b] = [`manager:${randomUUID()}`, `manager:${randomUUID()}`] as const;
    const claim = async (request: IdempotencyClaimRequest) =>
      (await idempotency.claim(request))._unsafeUnwrap();
    const heldA = [];
    for (let index = 0; index < 6; index += 1) {
      const request = claimOf(a, `a-${index}`, { now: new Date(start + index) });
      expect(await claim(request)).toEqual({ type: 'Claimed' });
      heldA.push(request);
    }
    for (let index = 0; index < 3; index += 1) {
      expect(await claim(claimOf(b, `b-${index}`))).toEqual({ type: 'Claimed' });
    }
    // A repeat in progress and a takeover of an expired record add no record.
    expect(await claim(claimOf(a, 'a-0'))).toEqual({ type: 'InProgress' });
    expect(await claim(claimOf(a, 'a-1', { now: new Date(start + recordTtlMs + 10) }))).toEqual({
      type: 'Claimed',
    });
    // 24 concurrent claims of fresh keys of one owner, as a busy caller sends them.
    const burst = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        claim(claimOf(b, `burst-${index}`, { now: new Date(start + 1000) })),
      ),
    );
    expect(burst.every((outcome) => outcome.type === 'Claimed')).toBe(true);
    expect(await sumsAndCounts([a, b])).toEqual(
      [
        [a, 6, 6],
        [b, 27, 27],
      ].sort(),
    );

    // A release deletes one record; a purge deletes the expired ones of every owner.
    (await idempotency.release(heldA[2] as IdempotencyClaimRequest))._unsafeUnwrap();
    const purged = (await idempotency.purgeExpired(new Date(start + 4), 2))._unsafeUnwrap();
    expect(purged).toBe(2 + 3); // a-0 and a-3 (a-2 released, a-1 taken over later), b-0..b-2
    // An insert rolled back leaves no trace; a record moved to another owner moves its count.
    const session = await database.pool.connect();
    try {
      await session.query('BEGIN');
      await session.query(
        `INSERT INTO ${t.idempotency} (owner, scope, idempotency_key, fingerprint, token, state, created_at, locked_at)
         VALUES ($1, $2, 'rolled-back', 'f', 't', 'IN_PROGRESS', now(), now())`,
        [a, `${a} POST /x`],
      );
      await session.query('ROLLBACK');
    } finally {
      session.release();
    }
    await database.pool.query(
      `UPDATE ${t.idempotency} SET owner = $2 WHERE owner = $1 AND idempotency_key = 'a-5'`,
      [a, b],
    );
    expect(await sumsAndCounts([a, b])).toEqual(
      [
        [a, 2, 2],
        [b, 25, 25],
      ].sort(),
    );

    await database.ownerPool.query(`TRUNCATE ${t.idempotency}`);
    expect(await sumsAndCounts([a, b])).toEqual(
      [
        [a, 0, 0],
        [b, 0, 0],
      ].sort(),
    );
  });

  it('stays exact under concurrent purges of many owners and concurrent claims', async () => {
    const { idempotency } = database.adapters;
    const owners = Array.from({ length: 40 }, () => `manager:${randomUUID()}`);
    // 400 expired records over 40 owners, then two purges in small batches racing claims.
    await Promise.all(
      owners.map(async (owner) => {
        for (let index = 0; index < 10; index += 1) {
          (
            await idempotency.claim(claimOf(owner, `old-${index}`, { now: new Date(start - 1000 + index) }))
          )._unsafeUnwrap();
        }
      }),
    );
    const purges = [0, 1].map(() => idempotency.purgeExpired(new Date(start), 7));
    const claims = owners.map((owner, index) =>
      idempotency.claim(claimOf(owner, `new-${index}`, { now: new Date(start + 1) })),
    );
    const purged = await Promise.all(purges);
    for (const outcome of await Promise.all(claims))
      expect(outcome._unsafeUnwrap()).toEqual({ type: 'Claimed' });
    expect(purged.reduce((total, outcome) => total + outcome._unsafeUnwrap(), 0)).toBe(400);
    expect(await sumsAndCounts(owners)).toEqual(byOwner(owners.map((owner) => [owner, 1, 1] as const)));
  });

  it('counts the live records only when the stored ones reach the quota', async () => {
    const { idempotency } = database.adapters;
    const owner = `manager:${randomUUID()}`;
    for (let index = 0; index < 3; index += 1) {
      (await idempotency.claim(claimOf(owner, `k-${index}`)))._unsafeUnwrap();
    }
    /** Runs the claim statement again under EXPLAIN ANALYZE (claiming `key`): loops of the count's scan. */
    const countLoops = async (key: string, quota: number) => {
      (
        await idempotency.claim(claimOf(owner, `probe-${key}`, { maxLiveRecordsPerOwner: quota }))
      )._unsafeUnwrap();
      const sent = database.recentStatements().at(-1) as SentStatement;
      expect(sent.text).toContain('under_quota');
      const values = [...sent.values];
      values[1] = key;
      values[3] = randomUUID();
      const explained = await database.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent.text}`, values);
      type Node = { 'Index Name'?: string; 'Actual Loops': number; Plans?: Node[] };
      const nodes = (node: Node): Node[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
      const scans = nodes(explained.rows[0]['QUERY PLAN'][0].Plan as Node).filter(
        (node) => node['Index Name'] === 'idempotency_records_by_owner',
      );
      expect(scans.length).toBeGreaterThan(0);
      return scans.reduce((loops, node) => loops + node['Actual Loops'], 0);
    };
    // 4 stored (3 + the probe) against a quota of 100: answered by the sum, no scan of the records.
    expect(await countLoops('under', 100)).toBe(0);
    // 6 stored (the probe claimed under the quota) against a quota of 6: the live records are counted.
    expect(await countLoops('at', 6)).toBeGreaterThan(0);
    expect(
      (await idempotency.claim(claimOf(owner, 'refused', { maxLiveRecordsPerOwner: 6 })))._unsafeUnwrap(),
    ).toEqual({
      type: 'QuotaExceeded',
      retryAfterMs: recordTtlMs + 1,
    });
  });
});
