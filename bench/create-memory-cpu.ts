/**
 * CPU per create in memory mode, in-process (no HTTP), one build alone in its process; not one of
 * `pnpm bench`'s files (no goal): `TSX_TSCONFIG_PATH=bench/tsconfig.packages.json node --import tsx
 * bench/create-memory-cpu.ts` (after `pnpm build`). Less sensitive to the machine's load than the
 * rate ratio of bench/memory-http.ts: run it on two builds, alternately, to compare them.
 * BENCH_WARMUP_REQUESTS creates (2,000), then BENCH_ROUNDS (5) rounds of BENCH_REQUESTS (2,000),
 * each the HTTP bench's create: one new file in the manager's temporary storage, then a create
 * naming it, 8 in flight; `process.cpuUsage()` per round, the median printed.
 */
import { createOnboardingKit, exampleIndividualPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { loadAverage, median } from './bench-report.js';

const warmUp = Number(process.env.BENCH_WARMUP_REQUESTS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const inFlight = 8;

const adapters = createMemoryAdapters();
const kit = createOnboardingKit(adapters);
const manager: ManagerPrincipal = { kind: 'manager', managerId: '11111111-1111-4111-8111-111111111111' };
const bytes = new Uint8Array(64);
let next = 0;

const creates = async (count: number) => {
  const one = async () => {
    const filename = `passport-${next++}.pdf`;
    adapters.testing.putTemporaryFile(`manager:${manager.managerId}`, filename, bytes);
    const created = await kit.clients.createIndividual(
      manager,
      exampleIndividualPayload({ idDocuments: [filename] }),
    );
    if (created.isErr()) throw new Error(JSON.stringify(created.error));
  };
  for (let done = 0; done < count; done += inFlight) await Promise.all(Array.from({ length: inFlight }, one));
};

await creates(warmUp);
const perCreate: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const started = process.cpuUsage();
  await creates(requests);
  const used = process.cpuUsage(started);
  perCreate.push((used.user + used.system) / requests);
}
console.log(
  `memory create CPU: median ${median(perCreate).toFixed(0)} µs a create (rounds ${perCreate.map((us) => us.toFixed(0)).join(' / ')}), ` +
    `${warmUp + rounds * requests} creates, load average ${loadAverage()}`,
);
