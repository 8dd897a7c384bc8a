/**
 * HTTP create on PostgreSQL over a link with 1 ms of added round-trip time (decisions §9), run
 * with `node --import tsx bench/postgres-http-create.ts` (part of `pnpm bench`).
 *
 * A TCP proxy in a process of its own (test-support/tcp-latency-proxy.ts) holds every chunk sent to
 * PostgreSQL for 1 ms, as a link between two availability zones would. Two servers, each in its
 * own process (bench/http-target.ts), reach the database only through it:
 * - `pg-kit`: the demo's Express app over the kit on the PostgreSQL adapters, documents in memory;
 * - `pg-handwritten`: a hand-written Express + pg route doing the same writes with one statement
 *   per row inside BEGIN/COMMIT (bench/handwritten-pg-create.ts).
 * autocannon sends `POST …/clients/individuals` with an Idempotency-Key of its own and a file of
 * its own per request, the same number of connections to both, in interleaved rounds.
 * Goals (decisions §9, amended): throughput ≥ 1.0× and p50 latency ≤ 1.0× the hand-written route
 * (each the median of the rounds' own ratios). The round trips to the database per create, counted
 * by the proxy over creates sent one at a time, are printed, not gated.
 *
 * BENCH_PG_CONNECTIONS (default 4), BENCH_ROUNDS (5), BENCH_ROUND_SECONDS (3), BENCH_WARMUP_SECONDS
 * (5). Uses DATABASE_URL when set (a fresh database on that server), otherwise an embedded PostgreSQL.
 */
import { demoIdentities } from '@onboarding-kit/core';
import { migrate } from '@onboarding-kit/postgres';
import { openTestDatabase } from '../packages/postgres/test-support/embedded-postgres-server.js';
import { createPool } from '../packages/postgres/test-support/postgres-pool.js';
import {
  createGoalLedger,
  loadAverage,
  median,
  percentile,
  printPostgresBenchHeader,
} from './bench-report.js';
import { type LoadRequest, measureAlternating } from './http-load.js';
import { payloadWithFile, preloadedFilename } from './http-preloaded-files.js';
import { type RunningTarget, startTarget } from './http-target-process.js';
import { startLatencyProxyChild } from './tcp-latency-proxy-child.js';

const addedRoundTripMs = 1;
const schema = 'bench_http';
const options = {
  connections: Number(process.env.BENCH_PG_CONNECTIONS ?? 4),
  warmUpSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 5),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? 3),
};
/** Creates per second neither side reaches over the link: the preloaded files are sized on it. */
const CREATE_RATE_BOUND = 4_000;
/** Creates sent one at a time to count round trips (after the load, with files of their own). */
const countedCreates = 200;
/** Creates sent one at a time before counting, not counted. */
const warmUpCounted = 20;
const loadFiles = Math.ceil(
  (options.warmUpSeconds + options.rounds * options.roundSeconds) * CREATE_RATE_BOUND,
);

const { checkGoal, finish } = createGoalLedger();

const headers = { 'content-type': 'application/json', SERVICE_API_KEY: demoIdentities.managerA.apiKey };

const createRequest = (path: string, side: string): LoadRequest => ({
  method: 'POST',
  path,
  headers,
  perRequest: (n) => ({
    body: payloadWithFile(preloadedFilename(n)),
    headers: { 'Idempotency-Key': `${side}-${n}` },
  }),
});

/** The median, in ms, of `samples` timings of `work`. */
const medianMs = async (samples: number, work: () => Promise<unknown>): Promise<number> => {
  const timings: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    await work();
    timings.push(performance.now() - started);
  }
  return percentile(
    timings.sort((a, b) => a - b),
    50,
  );
};

const main = async () => {
  const database = await openTestDatabase();
  const direct = new URL(database.connectionString);
  const proxy = await startLatencyProxyChild(
    { host: direct.hostname, port: Number(direct.port) },
    addedRoundTripMs,
  );
  const proxied = new URL(database.connectionString);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  const directPool = createPool(database.connectionString, 2);
  const proxiedPool = createPool(proxied.toString(), 1);
  const targets: RunningTarget[] = [];
  try {
    (await migrate(directPool, { schema }))._unsafeUnwrap();
    await printPostgresBenchHeader('PostgreSQL HTTP create over a 1 ms link', directPool);
    await proxiedPool.query('SELECT 1');
    const directMs = await medianMs(500, () => directPool.query('SELECT 1'));
    const proxiedMs = await medianMs(500, () => proxiedPool.query('SELECT 1'));
    console.log(
      `round trip of SELECT 1: ${directMs.toFixed(3)} ms direct, ${proxiedMs.toFixed(3)} ms through the proxy ` +
        `(added ${(proxiedMs - directMs).toFixed(3)} ms; asked ${addedRoundTripMs} ms)`,
    );

    const env = { BENCH_DATABASE_URL: proxied.toString(), BENCH_PG_SCHEMA: schema };
    const handwritten = await startTarget('pg-handwritten', env);
    targets.push(handwritten);
    const kit = await startTarget('pg-kit', {
      ...env,
      BENCH_PRELOAD_FILES: String(loadFiles + 2 * (warmUpCounted + countedCreates)),
    });
    targets.push(kit);

    console.log(
      `\n## POST /clients/individuals, ${options.connections} connections each, a ${options.warmUpSeconds} s warm-up, ` +
        `${options.rounds} interleaved rounds of ${options.roundSeconds} s`,
    );
    const [byHand, viaKit] = await measureAlternating(
      [
        {
          label: 'hand-written',
          origin: handwritten.origin,
          request: createRequest('/clients/individuals', 'hand'),
        },
        {
          label: 'kit',
          origin: kit.origin,
          request: createRequest('/manager/v1/clients/individuals', 'kit'),
        },
      ],
      {
        ...options,
        // A database in use has statistics (autovacuum analyzes as tables grow): plans made on the
        // empty tables of the warm-up are not what a host's creates run with. ANALYZE invalidates them.
        afterWarmUp: () => directPool.query('ANALYZE'),
      },
    );
    if (byHand === undefined || viaKit === undefined) throw new Error('no result');
    for (const [label, result] of [
      ['hand-written Express + pg', byHand],
      ['kit (Express + PostgreSQL adapters)', viaKit],
    ] as const) {
      const failures = result.non2xx + result.errors + result.timeouts;
      console.log(
        `  ${label.padEnd(36)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s ` +
          `(rounds ${result.roundRates.map((rate) => rate.toFixed(0)).join(' / ')}), ` +
          `p50 ${result.latencyP50Ms.toFixed(1)} ms (rounds ${result.roundLatencyP50Ms.map((p) => p.toFixed(1)).join(' / ')}), ` +
          `p99 ${result.latencyP99Ms.toFixed(1)} ms, ${result.requests} requests` +
          (failures === 0
            ? ', all 2xx'
            : ` !! ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`),
      );
    }
    const clean = [byHand, viaKit].every((result) => result.non2xx + result.errors + result.timeouts === 0);
    const throughput = median(
      viaKit.roundRates.map((rate, i) => rate / (byHand.roundRates[i] ?? Number.NaN)),
    );
    const latency = median(
      viaKit.roundLatencyP50Ms.map((p50, i) => p50 / (byHand.roundLatencyP50Ms[i] ?? Number.NaN)),
    );
    checkGoal(
      'pg.http-create.1ms-link.throughput-vs-handwritten',
      `${throughput.toFixed(2)}x`,
      '>= 1.0x, every answer 2xx',
      clean && throughput >= 1,
    );
    checkGoal(
      'pg.http-create.1ms-link.p50-vs-handwritten',
      `${latency.toFixed(2)}x`,
      '<= 1.0x',
      clean && latency <= 1,
    );

    // Round trips: creates one at a time, so that nothing else crosses the proxy meanwhile, after
    // a few uncounted ones (a pool connection closed while idle opens again: a handshake of its own).
    const countRoundTrips = async (origin: string, path: string, side: string, firstFile: number) => {
      let before = 0;
      for (let i = -warmUpCounted; i < countedCreates; i += 1) {
        if (i === 0) before = await proxy.roundTrips();
        const answer = await fetch(`${origin}${path}`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': `${side}-counted-${i}` },
          body: payloadWithFile(preloadedFilename(firstFile + warmUpCounted + i)),
        });
        if (answer.status !== 201)
          throw new Error(`${side}: a counted create answered ${answer.status}: ${await answer.text()}`);
      }
      return ((await proxy.roundTrips()) - before) / countedCreates;
    };
    const handRoundTrips = await countRoundTrips(
      handwritten.origin,
      '/clients/individuals',
      'hand',
      loadFiles,
    );
    const kitRoundTrips = await countRoundTrips(
      kit.origin,
      '/manager/v1/clients/individuals',
      'kit',
      loadFiles + countedCreates,
    );
    console.log(
      `round trips to PostgreSQL per create (${countedCreates} creates one at a time): ` +
        `hand-written ${handRoundTrips.toFixed(2)}, kit ${kitRoundTrips.toFixed(2)}`,
    );
    console.log(`\nload average (1, 5, 15 min) at the end: ${loadAverage()}`);
  } finally {
    for (const target of targets) {
      await target.stop();
      const logged = target.stderr().trim();
      if (logged !== '') console.log(`  (target stderr: ${logged.split('\n')[0]})`);
    }
    await directPool.end();
    await proxiedPool.end();
    await proxy.close();
    await database.close();
  }
  finish();
};

await main();
