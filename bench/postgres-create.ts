/**
 * PostgreSQL on a local socket (no added latency), run with `node --import tsx bench/postgres-create.ts`.
 *
 * 1. Create-individual through the kit (validation, idempotency claim, document promotion, the
 *    command's transaction on the postgres adapters) against the same rows written by hand straight
 *    through pg (bench/handwritten-pg-create.ts: the autocommitted claim, then BEGIN, one statement
 *    per row, COMMIT) after validating the payload with the same schema, at the kit level, not over
 *    HTTP: the ratio isolates what the kit and its adapters cost on top of the database work and
 *    the validation. Goal ≥ 0.85× (decisions §9).
 * 2. A manager's preset fee list (what GET /preset-fees reads), 1,000 fees among 1,000,000 rows,
 *    through the kit, each list timed against the same SQL sent straight through pg: goal p99 ≤ 1.5×
 *    the raw query's p99; its plan an index scan without Sort.
 *
 * BENCH_NO_QUOTA=1 runs the kit without its per-caller idempotency quota (to measure what the
 * quota's count costs). BENCH_ONLY=create or BENCH_ONLY=preset-fees runs one half; BENCH_REQUESTS,
 * BENCH_CONCURRENCY and BENCH_WARMUP_REQUESTS (creates per side before the rounds, 3,000) tune the first. Uses DATABASE_URL when set (a fresh database is created on that server and dropped at the end),
 * otherwise an embedded PostgreSQL in a temporary directory.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import { defaultOnboardingPayloadSchemas } from '@onboarding-kit/core/schemas';
import { createMemoryAdapters, nodeTextHashing } from '@onboarding-kit/memory';
import { createPostgresAdapters, migrate } from '@onboarding-kit/postgres';
import { openTestDatabase } from '../packages/postgres/test-support/embedded-postgres-server.js';
import { createPool, type Pool } from '../packages/postgres/test-support/postgres-pool.js';
import { createGoalLedger, loadAverage, median, printPostgresBenchHeader } from './bench-report.js';
import { handwrittenPostgresCreate } from './handwritten-pg-create.js';
import { planOf, recordingPool, timeKitAgainstRaw } from './raw-sql-comparison.js';

const requestsPerRound = Number(process.env.BENCH_REQUESTS ?? 1500);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
// Creates per side before the rounds. With 200, the kit's three rounds rose in every run (764 → 867
// → 983 creates/s, its Node CPU 1.14 → 0.78 ms a create): it was still warming up (JIT, heap
// sizing) while the baseline, far less code, was not. From about 3,000 on its rounds are level.
const warmUpRequests = Number(process.env.BENCH_WARMUP_REQUESTS ?? 3000);
const rounds = 5;
const schema = 'bench';

type Rate = {
  readonly perSecond: number;
  readonly nodeCpuMsPerRequest: number;
  /** CPU of every `postgres` process of the machine per request (null where /proc is not there). */
  readonly postgresCpuMsPerRequest: number | null;
};

/** User + system CPU of the machine's `postgres` processes so far, in ms (Linux /proc), or null. */
const postgresCpuMs = (): number | null => {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // The command name is in parentheses; utime and stime are the 12th and 13th fields after it.
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The process ended meanwhile.
      }
    }
    // Clock ticks of 10 ms (USER_HZ is 100 on Linux, whatever the kernel's own tick).
    return ticks * 10;
  } catch {
    return null;
  }
};

const runConcurrently = async (total: number, work: (i: number) => Promise<void>): Promise<Rate> => {
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const postgresBefore = postgresCpuMs();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next;
        next += 1;
        await work(i);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  const postgresAfter = postgresCpuMs();
  return {
    perSecond: total / ((performance.now() - started) / 1000),
    nodeCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / total,
    postgresCpuMsPerRequest:
      postgresAfter === null || postgresBefore === null ? null : (postgresAfter - postgresBefore) / total,
  };
};

const cpuOf = (rate: Rate): string =>
  `Node CPU ${rate.nodeCpuMsPerRequest.toFixed(2)} ms/req` +
  (rate.postgresCpuMsPerRequest === null
    ? ''
    : `, PostgreSQL CPU ${rate.postgresCpuMsPerRequest.toFixed(2)} ms/req`);

const { checkGoal, finish } = createGoalLedger();

/**
 * The kit on the postgres adapters, documents in memory (their cost is not what is measured): one
 * instance for the warm-up and every round, as a host builds it once at start.
 */
const kitOnPool = (pool: Pool) => {
  const memory = createMemoryAdapters();
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool, schema }),
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
    // Node's native SHA-256, as docs/decisions.md advises a Node host to plug (the baseline's too).
    hashing: nodeTextHashing,
    ...(process.env.BENCH_NO_QUOTA ? { options: { idempotencyMaxRecordsPerOwner: null } } : {}),
  });
  return { memory, kit };
};

/**
 * Creates through the kit for a manager of its own (keys and quota of its own). The `count` files
 * the creates name are uploaded before the timed run, as a manager uploads them before it creates
 * (in production a request of its own, straight to S3): what is timed is the create alone.
 */
const kitCreate = ({ memory, kit }: ReturnType<typeof kitOnPool>, count: number) => {
  const principal: ManagerPrincipal = { kind: 'manager', managerId: `bench-kit-${randomUUID()}` };
  const owner = `manager:${principal.managerId}`;
  const scope = `${owner} POST /manager/v1/clients/individuals`;
  const bytes = new Uint8Array(2048);
  for (let i = 0; i < count; i += 1) memory.testing.putTemporaryFile(owner, `passport-${i}.pdf`, bytes);
  return async (i: number) => {
    const filename = `passport-${i}.pdf`;
    const payload = exampleIndividualPayload({ idDocuments: [filename] });
    const decision = (
      await kit.idempotency.claim({ scope, key: `k-${i}`, owner, body: payload })
    )._unsafeUnwrap();
    if (decision.type !== 'Claimed') throw new Error('bench key already used');
    const created = await kit.clients.createIndividual(principal, payload, { claim: decision.ref });
    if (created.isErr()) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
  };
};

/**
 * The same rows, the same two transactions, one statement per row straight through pg, after the
 * payload is validated with the same schema as the kit's (decisions §9: validation counted on both
 * sides).
 */
const baselineCreate = (pool: Pool) => {
  const managerId = `bench-baseline-${randomUUID()}`;
  const create = handwrittenPostgresCreate(pool, schema, nodeTextHashing);
  return async (i: number) => {
    const filename = `passport-${i}.pdf`;
    const parsed = defaultOnboardingPayloadSchemas.individualPayload.safeParse(
      exampleIndividualPayload({ idDocuments: [filename] }),
    );
    if (!parsed.success) throw new Error('the bench payload is invalid');
    await create({ managerId, idempotencyKey: `k-${i}`, payload: parsed.data, filename });
  };
};

const benchCreate = async (pool: Pool) => {
  const payload = exampleIndividualPayload();
  console.log(
    `\n## create-individual: ${requestsPerRound} requests x ${rounds} rounds, concurrency ${concurrency}, ` +
      `pool of ${pool.options.max} (${payload.bankAccounts.length} bank account(s), ${payload.blockchainWallets.length} wallet(s), 1 document)`,
  );
  // Warm up both paths (JIT, connections, plan caches) before measuring.
  const kit = kitOnPool(pool);
  await runConcurrently(warmUpRequests, baselineCreate(pool));
  await runConcurrently(warmUpRequests, kitCreate(kit, warmUpRequests));
  // A database in use has statistics (autovacuum analyzes as tables grow): plans made on the empty
  // tables of the warm-up are not what a host's creates run with. ANALYZE invalidates them.
  await pool.query(`ANALYZE`);
  const kitRates: number[] = [];
  const baselineRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const baseline = await runConcurrently(requestsPerRound, baselineCreate(pool));
    const measured = await runConcurrently(requestsPerRound, kitCreate(kit, requestsPerRound));
    baselineRates.push(baseline.perSecond);
    kitRates.push(measured.perSecond);
    ratios.push(measured.perSecond / baseline.perSecond);
    console.log(
      `round ${round}: baseline ${baseline.perSecond.toFixed(0)} req/s (${cpuOf(baseline)}), ` +
        `kit ${measured.perSecond.toFixed(0)} req/s (${cpuOf(measured)})`,
    );
  }
  // A noisy ratio is the median of the rounds' own ratios (decisions §9).
  const ratio = median(ratios);
  console.log(
    `median: baseline ${median(baselineRates).toFixed(0)} req/s, kit ${median(kitRates).toFixed(0)} req/s; ` +
      `rounds' ratios ${ratios.map((r) => r.toFixed(2)).join(' / ')}, median ${ratio.toFixed(2)}x`,
  );
  checkGoal('pg.create.local-socket.kit-vs-handwritten', `${ratio.toFixed(2)}x`, '>= 0.85x', ratio >= 0.85);
};

const benchPresetFees = async (pool: Pool) => {
  const managers = 1000;
  const total = 1_000_000;
  console.log(
    `\n## preset fee list: ${total / managers} fees of one manager among ${total} rows (${managers} managers)`,
  );
  const loadStarted = performance.now();
  // Interleaved: one manager's fees are spread over the whole table, the worst case for its list.
  await pool.query(`
    INSERT INTO "${schema}".preset_fees (id, manager_id, fee_direction, fiat_fee_group, blockchain_fee_group, configuration, created_at)
    SELECT gen_random_uuid(), 'fee-manager-' || (i % ${managers}),
      CASE WHEN i % 2 = 0 THEN 'ONRAMP' ELSE 'OFFRAMP' END,
      CASE WHEN i % 3 = 0 THEN 'G10' ELSE 'USD' END, 'USD_STABLECOIN',
      CASE WHEN i % 4 = 0
        THEN '{"type": "MONTHLY_VOLUME", "intermediaryLimits": [{"to": 10000, "fee": 1.5}, {"to": 100000, "fee": 1.0}], "upperLimitFee": 0.5}'::jsonb
        ELSE '{"type": "FLAT", "fee": 1.25}'::jsonb END,
      timestamptz '2030-01-01' + i * interval '1 second'
    FROM generate_series(1, ${total}) AS i`);
  await pool.query(`VACUUM ANALYZE "${schema}".preset_fees`);
  console.log(`loaded and analyzed in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  const recording = recordingPool(pool);
  const memory = createMemoryAdapters();
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool: recording.pool, schema }),
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
  });
  const lists = 500;
  const timings = await timeKitAgainstRaw(pool, lists, async (i) => {
    const fees = (
      await kit.presetFees.list({ kind: 'manager', managerId: `fee-manager-${(i * 7) % managers}` })
    )._unsafeUnwrap();
    if (fees.length !== total / managers) throw new Error(`listed ${fees.length} fees`);
    return recording.last();
  });
  const ratio = timings.kitP99 / timings.rawP99;
  console.log(
    `kit presetFees.list, ${lists} lists of random managers: p50 ${timings.kitP50.toFixed(2)} ms, p99 ${timings.kitP99.toFixed(2)} ms; ` +
      `the same SQL straight through pg: p50 ${timings.rawP50.toFixed(2)} ms, p99 ${timings.rawP99.toFixed(2)} ms`,
  );
  checkGoal('pg.preset-fee-list.p99-vs-raw', `${ratio.toFixed(2)}x`, '<= 1.5x', ratio <= 1.5);
  const { types, sortedRows } = await planOf(pool, recording.last());
  console.log(`plan: ${[...new Set(types)].join(', ')}`);
  checkGoal(
    'pg.preset-fee-list.plan-index-scan',
    [...new Set(types)].join('+'),
    'an Index Scan, no Seq Scan',
    types.some((type) => type.startsWith('Index')) && !types.includes('Seq Scan'),
  );
  checkGoal(
    'pg.preset-fee-list.plan-no-sort',
    sortedRows.length === 0 ? 'no Sort' : 'Sort',
    'no Sort',
    sortedRows.length === 0,
  );
};

const main = async () => {
  const only = process.env.BENCH_ONLY;
  const database = await openTestDatabase();
  const pool = createPool(database.connectionString, concurrency);
  try {
    (await migrate(pool, { schema }))._unsafeUnwrap();
    await printPostgresBenchHeader('PostgreSQL adapter bench', pool);
    if (only !== 'preset-fees') await benchCreate(pool);
    if (only !== 'create') await benchPresetFees(pool);
    console.log(`\nload average (1, 5, 15 min) at the end: ${loadAverage()}`);
  } finally {
    await pool.end();
    await database.close();
  }
  finish();
};

await main();
