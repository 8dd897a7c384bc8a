/**
 * Node CPU per create on a local socket (PostgreSQL), one side alone in its process; not one of
 * `pnpm bench`'s files (no goal: it explains the ratio of bench/postgres-create.ts):
 * `TSX_TSCONFIG_PATH=bench/tsconfig.packages.json BENCH_SIDE=kit|handwritten node --import tsx bench/create-node-cpu.ts`
 * (after `pnpm build`; the tsconfig points the packages at their `dist`; add `--cpu-prof` to
 * profile). Less sensitive to the machine's load than the rate ratio of bench/postgres-create.ts,
 * which it does not replace: it says where the kit's CPU goes.
 * BENCH_REQUESTS creates (2,000) after BENCH_WARMUP_REQUESTS (3,000), 8 in flight, then
 * `process.cpuUsage()` over the timed creates, in three rounds (9,000 in all: one manager's
 * idempotency quota is 10,000).
 * BENCH_COUNT=1 instead counts, after the warm-up, the promises made per create (500 creates, an
 * `async_hooks` hook) and the bytes allocated per create (1,000 creates, V8's sampling heap
 * profiler keeping collected objects): figures that do not move with the machine's load, to
 * compare two builds of the kit (or the kit with the hand-written route) where CPU time cannot.
 */
import { createHook } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
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
import { createPool } from '../packages/postgres/test-support/postgres-pool.js';
import { loadAverage } from './bench-report.js';
import { handwrittenPostgresCreate } from './handwritten-pg-create.js';

const side = process.env.BENCH_SIDE ?? 'kit';
const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const warmUp = Number(process.env.BENCH_WARMUP_REQUESTS ?? 3000);
const concurrency = 8;
const schema = 'bench';

const database = await openTestDatabase();
const pool = createPool(database.connectionString, concurrency);

const kitSide = () => {
  const memory = createMemoryAdapters();
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool, schema }),
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
    hashing: nodeTextHashing,
  });
  const principal: ManagerPrincipal = { kind: 'manager', managerId: `bench-kit-${randomUUID()}` };
  const owner = `manager:${principal.managerId}`;
  const scope = `${owner} POST /manager/v1/clients/individuals`;
  const bytes = new Uint8Array(2048);
  for (let i = 0; i < warmUp + 3 * requests; i += 1) {
    memory.testing.putTemporaryFile(owner, `passport-${i}.pdf`, bytes);
  }
  return async (i: number) => {
    const payload = exampleIndividualPayload({ idDocuments: [`passport-${i}.pdf`] });
    const decision = (
      await kit.idempotency.claim({ scope, key: `k-${i}`, owner, body: payload })
    )._unsafeUnwrap();
    if (decision.type !== 'Claimed') throw new Error('bench key already used');
    const created = await kit.clients.createIndividual(principal, payload, { claim: decision.ref });
    if (created.isErr()) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
  };
};

const handwrittenSide = () => {
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

const run = async (from: number, total: number, work: (i: number) => Promise<void>) => {
  let next = from;
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < from + total) {
        const i = next;
        next += 1;
        await work(i);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return (cpu.user + cpu.system) / 1000 / total;
};

/** Promises made and bytes allocated per create, after the warm-up (BENCH_COUNT=1). */
const countPerCreate = async (work: (i: number) => Promise<void>) => {
  let promises = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') promises += 1;
    },
  });
  hook.enable();
  await run(warmUp, 500, work);
  hook.disable();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run(warmUp + 500, 1000, work);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  type ProfileNode = (typeof profile)['head'];
  const sizeOf = (node: ProfileNode): number =>
    node.children.reduce((sum, child) => sum + sizeOf(child), node.selfSize);
  const bytes = sizeOf(profile.head) / 1000;
  console.log(
    `${side}: ${(promises / 500).toFixed(0)} promises per create, ${(bytes / 1024).toFixed(0)} KiB allocated per create; load ${loadAverage()}`,
  );
};

try {
  (await migrate(pool, { schema }))._unsafeUnwrap();
  const work = side === 'kit' ? kitSide() : handwrittenSide();
  await run(0, warmUp, work);
  await pool.query('ANALYZE');
  if (process.env.BENCH_COUNT) {
    await countPerCreate(work);
    process.exit(0);
  }
  const perCreate: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    perCreate.push((await run(warmUp + round * requests, requests, work)).toFixed(2));
  }
  console.log(
    `${side}: Node CPU per create ${perCreate.join(' / ')} ms (${requests} creates a round); load ${loadAverage()}`,
  );
} finally {
  await pool.end();
  await database.close();
}
