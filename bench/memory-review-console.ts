/**
 * The review console's render cost, run with `node --import tsx bench/memory-review-console.ts`
 * (part of `pnpm bench`). The demo's app on 127.0.0.1, in this process, serves the console (at
 * /review, behind the demo's staff login) and the kit's own compliance interface (at
 * /compliance/v1) over one memory kit holding 1,000 clients
 * under review (BENCH_QUEUE_CLIENTS), one of them with 50 documents. Sequential keep-alive GETs,
 * the two sides in interleaved rounds (BENCH_ROUNDS of BENCH_REQUESTS each):
 *
 * 1. The queue page (its first 50 rows, the counts over all 1,000) vs the baseline, the JSON of the
 *    same page from GET /compliance/v1/review-queue?limit=50.
 * 2. A client page with 50 documents (the client, its status history and its audit trail, each
 *    document a form) vs GET /compliance/v1/clients/:id (the client alone).
 *
 * The goals bound the console's overhead over the kit's JSON answer of the same data: the median
 * of the rounds' ratios of medians, at most 2× for the queue, and at most 4× for the client page,
 * which does more than its baseline: it also reads the status history and the audit trail, and
 * carries about 12× the bytes (a form per document, with its CSRF token and Idempotency-Key, and
 * the payload's field paths in each of the three requirement rows of the resubmission form).
 * First run (built packages, load 10-12 on 2 cores): 1.02× and 1.91×.
 * Absolute times are reported with the load average.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  principalKey,
  seedDemoData,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { createDemoApp } from '../examples/demo/src/demo-app.js';
import { demoStaff } from '../examples/demo/src/demo-staff-login.js';
import { createGoalLedger, loadAverage, median, percentile } from './bench-report.js';

const { checkGoal, finish } = createGoalLedger();
const queueClients = Number(process.env.BENCH_QUEUE_CLIENTS ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 100);

const adapters = createMemoryAdapters();
const kit = createOnboardingKit(adapters);
(await seedDemoData(adapters))._unsafeUnwrap();
const manager = demoIdentities.managerA.principal;
const owner = principalKey(manager);
const bytes = new Uint8Array(1024).fill(7);

// 1,000 clients waiting (the seeded one among them).
const started = performance.now();
for (let index = 1; index < queueClients; index += 1) {
  adapters.testing.putTemporaryFile(owner, 'passport.pdf', bytes);
  (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
}
// One of them with 50 documents, ten in each of five document fields.
const fields = [
  'idDocuments',
  'proofOfAddressDocuments',
  'proofOfAmlDocuments',
  'sourceOfFundsDocuments',
  'proofOfTaxResidencyDocuments',
] as const;
const documents = Object.fromEntries(
  fields.map((field) => [field, Array.from({ length: 10 }, (_, index) => `${field}-${index + 1}.pdf`)]),
) as Record<(typeof fields)[number], string[]>;
for (const filename of Object.values(documents).flat())
  adapters.testing.putTemporaryFile(owner, filename, bytes);
const documented = (
  await kit.clients.createIndividual(manager, exampleIndividualPayload(documents))
)._unsafeUnwrap();
const documentCount = fields.reduce(
  (sum, field) =>
    sum +
    (
      (documented.individualProfile?.[field as 'idDocuments'] as string[] | undefined) ??
      (documented.individualSourceOfFunds?.[field as 'sourceOfFundsDocuments'] as string[] | undefined) ??
      []
    ).length,
  0,
);
if (documentCount !== 50) throw new Error(`the client holds ${documentCount} documents, not 50`);
const setupMs = performance.now() - started;

// The demo's app: the compliance interface and the console behind its staff login, as served.
const server = createServer(createDemoApp({ kit, signedLinks: null, logger: console }));
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const complianceKey = demoIdentities.compliance.apiKey;
const staffLogin = {
  authorization: `Basic ${Buffer.from(`${demoStaff.username}:${demoStaff.password}`).toString('base64')}`,
};

/** One GET's time in ms, its body read whole; a non-200 fails the bench. */
const timedGet = async (path: string, headers: Record<string, string> = {}): Promise<number> => {
  const before = performance.now();
  const response = await fetch(`${origin}${path}`, { headers });
  const body = await response.arrayBuffer();
  const ms = performance.now() - before;
  if (response.status !== 200 || body.byteLength === 0)
    throw new Error(`GET ${path} answered ${response.status}`);
  return ms;
};

type Side = { readonly label: string; readonly path: string; readonly headers?: Record<string, string> };

/** Interleaved rounds of both sides; each round's medians and their ratio. */
const compare = async (page: Side, baseline: Side) => {
  for (let warm = 0; warm < 30; warm += 1) {
    await timedGet(page.path, page.headers);
    await timedGet(baseline.path, baseline.headers);
  }
  const all = { page: [] as number[], baseline: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const times = { page: [] as number[], baseline: [] as number[] };
    for (let index = 0; index < requests; index += 1) {
      times.page.push(await timedGet(page.path, page.headers));
      times.baseline.push(await timedGet(baseline.path, baseline.headers));
    }
    ratios.push(median(times.page) / median(times.baseline));
    all.page.push(...times.page);
    all.baseline.push(...times.baseline);
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const [pageTimes, baselineTimes] = [sorted(all.page), sorted(all.baseline)];
  const sizes = await Promise.all(
    [page, baseline].map(
      async (side) =>
        (await (await fetch(`${origin}${side.path}`, { headers: side.headers ?? {} })).arrayBuffer())
          .byteLength,
    ),
  );
  console.log(
    `${page.label}: p50 ${percentile(pageTimes, 50).toFixed(2)} ms, p95 ${percentile(pageTimes, 95).toFixed(2)} ms, ${(sizes[0] ?? 0).toLocaleString('en')} bytes`,
  );
  console.log(
    `${baseline.label}: p50 ${percentile(baselineTimes, 50).toFixed(2)} ms, p95 ${percentile(baselineTimes, 95).toFixed(2)} ms, ${(sizes[1] ?? 0).toLocaleString('en')} bytes`,
  );
  return median(ratios);
};

console.log(
  `memory kit: ${queueClients.toLocaleString('en')} clients under review, one with 50 documents (set up in ${(setupMs / 1000).toFixed(1)} s); ` +
    `${rounds} rounds of ${requests} sequential GETs a side; load average ${loadAverage()}`,
);
const queueRatio = await compare(
  { label: 'queue page (50 rows of 1,000)   GET /review/', path: '/review/', headers: staffLogin },
  {
    label: 'baseline JSON                    GET /compliance/v1/review-queue?limit=50',
    path: '/compliance/v1/review-queue?limit=50',
    headers: { SERVICE_API_KEY: complianceKey },
  },
);
checkGoal('review console: queue page / its JSON', `${queueRatio.toFixed(2)}×`, '≤ 2×', queueRatio <= 2);
const clientRatio = await compare(
  {
    label: 'client page, 50 documents       GET /review/clients/:id',
    path: `/review/clients/${documented.id}`,
    headers: staffLogin,
  },
  {
    label: 'baseline JSON                    GET /compliance/v1/clients/:id',
    path: `/compliance/v1/clients/${documented.id}`,
    headers: { SERVICE_API_KEY: complianceKey },
  },
);
checkGoal(
  'review console: client page (50 docs) / its JSON',
  `${clientRatio.toFixed(2)}×`,
  '≤ 4×',
  clientRatio <= 4,
);
console.log(`load average at the end ${loadAverage()}`);
server.close();
finish();
