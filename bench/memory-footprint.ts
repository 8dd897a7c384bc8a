/**
 * Memory mode's footprint after 100,000 creates, run with `node --import tsx
 * bench/memory-footprint.ts` (part of `pnpm bench`). The kit on memory adapters as the demo builds it, with a controllable clock: 100,000
 * creates by 20 managers (each naming an uploaded file; every tenth create also leaves a stray upload
 * no client uses), time moving one second a create; then past every lifetime (25 hours), the purges
 * of expired idempotency records and temporary files, a full GC, and the process's RSS.
 *
 * A create keeps its client, status history, document record and file, and events by design: those
 * grow with the clients. What must not grow without end are the idempotency records and the
 * temporary files. Goal: RSS after the purges at most `maxRssBytes` (docs/performance.md, "Memory
 * mode's footprint", says where the bound comes from). Heap figures are reported beside it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { createGoalLedger } from './bench-report.js';

const creates = Number(process.env.BENCH_CREATES ?? 100_000);
const managers = 20;
const hour = 3_600_000;
const strayEvery = 10;
const fileBytes = 64;
/** The documented bound of RSS after the purges (docs/performance.md). */
const maxRssBytes = 2.5 * 2 ** 30;

const { checkGoal, finish } = createGoalLedger();
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const clock = createControllableClock(new Date('2031-01-01T09:00:00.000Z'));
const adapters = createMemoryAdapters({ clock });
const kit = createOnboardingKit({ ...adapters });
const principals: ManagerPrincipal[] = Array.from({ length: managers }, (_, m) => ({
  kind: 'manager',
  managerId: `footprint-manager-${m}`,
}));
const bytes = new Uint8Array(fileBytes);
gc();
const before = process.memoryUsage();
const started = performance.now();
for (let i = 0; i < creates; i += 1) {
  const principal = principals[i % managers] as ManagerPrincipal;
  const owner = `manager:${principal.managerId}`;
  const filename = `passport-${i}.pdf`;
  adapters.testing.putTemporaryFile(owner, filename, bytes);
  if (Math.floor(i / managers) % strayEvery === 0)
    adapters.testing.putTemporaryFile(owner, `draft-${i}.pdf`, bytes);
  const payload = exampleIndividualPayload({ idDocuments: [filename] });
  const decision = (
    await kit.idempotency.claim({
      scope: `${owner} POST /manager/v1/clients/individuals`,
      key: `key-${i}`,
      owner,
      body: payload,
    })
  )._unsafeUnwrap();
  if (decision.type !== 'Claimed') throw new Error(`key-${i} was not claimed: ${decision.type}`);
  const created = await kit.clients.createIndividual(principal, payload, { claim: decision.ref });
  if (created.isErr()) throw new Error(`create ${i}: ${JSON.stringify(created.error)}`);
  // Records and files reach their lifetimes at different moments, as in a process that runs for days.
  clock.advance(1_000);
}
const createSeconds = (performance.now() - started) / 1000;
gc();
const afterCreates = process.memoryUsage();

clock.advance(25 * hour);
const purgedRecords = (await kit.idempotency.purgeExpired())._unsafeUnwrap();
const purgedFiles = adapters.testing.purgeExpiredTemporaryFiles();
gc();
const afterPurge = process.memoryUsage();

if (purgedRecords !== creates) throw new Error(`purged ${purgedRecords} idempotency records of ${creates}`);
if (adapters.testing.listTemporaryOwners().length !== 0)
  throw new Error('temporary files left after the purge');
const listed = (await kit.clients.list(principals[0] as ManagerPrincipal, { limit: 100 }))._unsafeUnwrap();
if (listed.data.length !== 100) throw new Error('the clients did not stay');

console.log(
  `${creates} creates in ${createSeconds.toFixed(1)} s; heap used ${mib(before.heapUsed)} → ${mib(afterCreates.heapUsed)} ` +
    `after the creates → ${mib(afterPurge.heapUsed)} after the purges ` +
    `(${((afterPurge.heapUsed - before.heapUsed) / creates).toFixed(0)} B a client kept, ` +
    `${((afterCreates.heapUsed - afterPurge.heapUsed) / creates).toFixed(0)} B a create freed); ` +
    `RSS ${mib(before.rss)} → ${mib(afterCreates.rss)} → ${mib(afterPurge.rss)}; ` +
    `purged ${purgedRecords} idempotency records and ${purgedFiles} files`,
);
checkGoal(
  'memory.rss-after-100k-creates-purged',
  mib(afterPurge.rss),
  `<= ${mib(maxRssBytes)}`,
  afterPurge.rss <= maxRssBytes,
);
finish();
