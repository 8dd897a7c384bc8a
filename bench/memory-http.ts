/**
 * The HTTP bench of memory mode, run with `node --import tsx bench/memory-http.ts` (part of
 * `pnpm bench`). autocannon runs in this process; every server runs in a process of its own on
 * 127.0.0.1 (bench/http-target.ts), and the sides of a comparison are measured in interleaved rounds.
 * Memory mode serves host unit tests and the demo: it is judged by simplicity, and its goals are
 * floors that catch a regression (decisions §9), each the median of the rounds' own ratios.
 *
 * 1. POST /clients/individuals through the whole demo stack on memory adapters (auth, JSON, zod,
 *    file checks, promotion, unit of work, response) vs a bare Express route, the spec's create as a
 *    team writes it by hand: it parses the JSON, runs the same zod schema and answers the spec's
 *    client (the one the kit created once, a fresh id and timestamps each), kept in a Map. Every
 *    request names a file of its own, put in the manager's temporary storage before the run, so
 *    every create is a 201. Floor 0.4× (decisions §9, amended). A third side is the demo's Express
 *    app whose create only runs the schema and answers that same client (`bindingOnlyKit`): the
 *    binding without the create's own work, goal ≥ 1.0× the bare route. The bare route and the
 *    binding only run in adjacent slots, A B B A, in shorter, more rounds (`createOptions`).
 * 2. GET /preset-fees vs bare Express answering the same JSON. Floor 0.5×.
 * 3. An idempotent replay (same key, same body) vs a first create with a fresh key. Goal ≥ 1×.
 */
import { demoIdentities } from '@onboarding-kit/core';
import { createGoalLedger, median } from './bench-report.js';
import { type LoadOptions, type LoadRequest, type LoadResult, measureAlternating } from './http-load.js';
import { payloadWithFile, preloadedFilename } from './http-preloaded-files.js';
import { type RunningTarget, startTarget, type TargetKind } from './http-target-process.js';

const { checkGoal, finish } = createGoalLedger();

const options = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  warmUpSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 5),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? 3),
};
/**
 * Creates per second no kit process is expected to reach on the bench machines (the bare route
 * answers 4,000–7,000): the files preloaded for a create run are sized on it.
 */
const CREATE_RATE_BOUND = 8_000;
// A file for every create the kit process may answer in its warm-up and its rounds. A create
// naming a file that is not there is a fast 400, which would inflate the kit's rate: run I's
// 40,000 were used up on a faster machine (run J, 2026-11-24), where half the creates were 400s.
// (The create comparison's rounds take the kit half a round longer in all: `createOptions`.)
const preloadedFiles = String(
  process.env.BENCH_PRELOAD_FILES ??
    Math.ceil((options.warmUpSeconds + (options.rounds + 1) * options.roundSeconds) * CREATE_RATE_BOUND),
);
const managerKey = demoIdentities.managerA.apiKey;
const jsonHeaders = { 'content-type': 'application/json', SERVICE_API_KEY: managerKey };

const createRequest = (path: string): LoadRequest => ({
  method: 'POST',
  path,
  headers: jsonHeaders,
  perRequest: (n) => ({ body: payloadWithFile(preloadedFilename(n)) }),
});

/**
 * The create comparison's rounds (targets: 0 baseline, 1 kit, 2 binding only): half as long, twice
 * as many and one more (an odd count, so that the median is one round's own ratio), so each side
 * runs about as long in all as before. A round: the kit for its `roundSeconds`, then the bare route
 * and the binding only in four adjacent quarter slots A B B A, the side that goes first alternating
 * from round to round (the bare route in even rounds). The two sides of the binding-only ratio run
 * around the same moment, so a load that drifts over the round weighs on both alike, the kit's slot
 * is never between them, and what follows the kit's slot alternates too.
 */
const createOptions: LoadOptions = {
  ...options,
  rounds: options.rounds * 2 + 1,
  roundSeconds: options.roundSeconds / 2,
  roundSlots: (round) => {
    const quarter = options.roundSeconds / 4;
    const [first, second] = round % 2 === 0 ? [0, 2] : [2, 0];
    return [
      { target: 1, seconds: options.roundSeconds / 2 },
      { target: first, seconds: quarter },
      { target: second, seconds: quarter },
      { target: second, seconds: quarter },
      { target: first, seconds: quarter },
    ];
  },
};

/** Starts the servers, runs the work, stops them all (even when the work fails). */
const withTargets = async <T>(
  kinds: ReadonlyArray<{ kind: TargetKind; env?: Readonly<Record<string, string>> }>,
  work: (origins: string[], running: readonly RunningTarget[]) => Promise<T>,
): Promise<T> => {
  const started: RunningTarget[] = [];
  try {
    for (const { kind, env } of kinds) started.push(await startTarget(kind, env));
    return await work(
      started.map((target) => target.origin),
      started,
    );
  } finally {
    for (const [index, target] of started.entries()) {
      await target.stop();
      const logged = target.stderr().trim();
      if (logged !== '') console.log(`  (${kinds[index]?.kind} target stderr: ${logged.split('\n')[0]})`);
    }
  }
};

const describe = (label: string, result: LoadResult): string => {
  const failures = result.non2xx + result.errors + result.timeouts;
  return (
    `  ${label.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s` +
    ` (rounds ${result.roundRates.map((rate) => rate.toFixed(0)).join(' / ')})` +
    `  p50 ${result.latencyP50Ms.toFixed(1)} ms  p99 ${result.latencyP99Ms.toFixed(1)} ms` +
    `  ${result.requests} requests` +
    (failures === 0
      ? '  all 2xx'
      : `  !! ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  );
};

/** Checks that `measured` is at least `goal` times `reference`: the median of the rounds' own ratios, every answer 2xx. */
const compare = (label: string, measured: LoadResult, reference: LoadResult, goal: number): void => {
  const ratios = measured.roundRates.map((rate, i) => rate / (reference.roundRates[i] ?? Number.NaN));
  const ratio = median(ratios);
  console.log(`  ${label}: the rounds' own ratios ${ratios.map((r) => r.toFixed(2)).join(' / ')}`);
  const clean = [measured, reference].every(
    (result) => result.non2xx === 0 && result.errors === 0 && result.timeouts === 0,
  );
  checkGoal(label, `${ratio.toFixed(2)}x`, `>= ${goal}x, every answer 2xx`, clean && ratio >= goal);
};

const main = async (): Promise<void> => {
  console.log(
    `HTTP bench: autocannon, ${options.connections} connections; per server a ${options.warmUpSeconds} s ` +
      `warm-up, then ${options.rounds} rounds of ${options.roundSeconds} s alternating with the other side; ` +
      'each server in its own process on 127.0.0.1',
  );

  console.log(
    `\n1. POST /clients/individuals (every request a 201 naming a file of its own): ${createOptions.rounds} ` +
      `rounds, each the kit ${createOptions.roundSeconds} s, then the bare route and the binding only in ` +
      `${options.roundSeconds / 4} s slots A B B A, which goes first alternating`,
  );
  const [baselineCreate, kitCreate, bindingCreate] = await withTargets(
    [
      { kind: 'baseline' },
      { kind: 'kit', env: { BENCH_PRELOAD_FILES: preloadedFiles } },
      { kind: 'binding' },
    ],
    ([baseline = '', kit = '', binding = ''], [baselineProcess, kitProcess, bindingProcess]) =>
      measureAlternating(
        [
          {
            label: 'baseline',
            origin: baseline,
            request: createRequest('/clients/individuals'),
            cpuMicros: baselineProcess?.cpuMicros,
          },
          {
            label: 'kit',
            origin: kit,
            request: createRequest('/manager/v1/clients/individuals'),
            cpuMicros: kitProcess?.cpuMicros,
          },
          {
            label: 'binding',
            origin: binding,
            request: createRequest('/manager/v1/clients/individuals'),
            cpuMicros: bindingProcess?.cpuMicros,
          },
        ],
        createOptions,
      ),
  );
  if (baselineCreate === undefined || kitCreate === undefined || bindingCreate === undefined)
    throw new Error('create: no result');
  console.log(describe("baseline: zod + the spec's client in a Map", baselineCreate));
  console.log(describe('kit: demo stack on memory adapters', kitCreate));
  console.log(describe('binding only: kit routes, zod, same client', bindingCreate));
  // The servers' CPU per request beside the rates: what a request costs each side, whatever share of
  // the shared machine's cores its process got in a slot (reported, no goal).
  const cpuRatios = baselineCreate.roundCpuMicrosPerRequest.map(
    (micros, i) => micros / (bindingCreate.roundCpuMicrosPerRequest[i] ?? Number.NaN),
  );
  for (const [label, result] of [
    ['baseline', baselineCreate],
    ['kit', kitCreate],
    ['binding only', bindingCreate],
  ] as const) {
    const perRequest = result.roundCpuMicrosPerRequest;
    console.log(
      `  (reported) server CPU per create, ${label}: median ${median(perRequest).toFixed(0)} µs` +
        ` (rounds ${perRequest.map((micros) => micros.toFixed(0)).join(' / ')})`,
    );
  }
  console.log(
    `  (reported) bare route's CPU per create / binding only's: median ${median(cpuRatios).toFixed(2)}×` +
      ` (rounds ${cpuRatios.map((ratio) => ratio.toFixed(2)).join(' / ')})`,
  );
  console.log(
    `  (reported) kit / binding only ${(kitCreate.requestsPerSecond / bindingCreate.requestsPerSecond).toFixed(2)}×:` +
      ' what the create itself costs on memory adapters',
  );

  console.log('\n2. GET /preset-fees (manager A, 4 fees)');
  const [baselineFees, kitFees] = await withTargets(
    [{ kind: 'baseline' }, { kind: 'kit' }],
    ([baseline = '', kit = '']) =>
      measureAlternating(
        [
          {
            label: 'baseline',
            origin: baseline,
            request: { method: 'GET', path: '/preset-fees', headers: { SERVICE_API_KEY: managerKey } },
          },
          {
            label: 'kit',
            origin: kit,
            request: {
              method: 'GET',
              path: '/manager/v1/preset-fees',
              headers: { SERVICE_API_KEY: managerKey },
            },
          },
        ],
        options,
      ),
  );
  if (baselineFees === undefined || kitFees === undefined) throw new Error('preset fees: no result');
  console.log(describe('baseline: express answering the same JSON', baselineFees));
  console.log(describe('kit: demo stack on memory adapters', kitFees));

  console.log('\n3. Idempotency-Key on POST /manager/v1/clients/individuals');
  const [firstCreate, replay] = await withTargets(
    [
      { kind: 'kit', env: { BENCH_PRELOAD_FILES: preloadedFiles } },
      { kind: 'kit', env: { BENCH_PRELOAD_FILES: '1' } },
    ],
    async ([first = '', replayed = '']) => {
      const path = '/manager/v1/clients/individuals';
      const body = payloadWithFile(preloadedFilename(0));
      const replayHeaders = { ...jsonHeaders, 'Idempotency-Key': 'bench-replayed' };
      const original = await fetch(`${replayed}${path}`, { method: 'POST', headers: replayHeaders, body });
      if (original.status !== 201) throw new Error(`the create to replay answered ${original.status}`);
      return measureAlternating(
        [
          {
            label: 'first create',
            origin: first,
            request: {
              ...createRequest(path),
              perRequest: (n) => ({
                body: payloadWithFile(preloadedFilename(n)),
                headers: { 'Idempotency-Key': `bench-first-${n}` },
              }),
            },
          },
          {
            label: 'replay',
            origin: replayed,
            request: { method: 'POST', path, headers: replayHeaders, body },
          },
        ],
        options,
      );
    },
  );
  if (firstCreate === undefined || replay === undefined) throw new Error('idempotency: no result');
  console.log(describe('first create, a fresh key each', firstCreate));
  console.log(describe('replay of one finished create', replay));

  console.log('');
  compare('memory.http-create.kit-vs-bare-route', kitCreate, baselineCreate, 0.4);
  compare('memory.http-create.binding-only-vs-bare-route', bindingCreate, baselineCreate, 1.0);
  compare('memory.http-preset-fees.kit-vs-bare-route', kitFees, baselineFees, 0.5);
  compare('memory.http-idempotency.replay-vs-first-create', replay, firstCreate, 1);
  finish();
};

await main();
