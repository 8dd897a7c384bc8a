import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { root } from './markdown-files.js';

/**
 * No test waits real time for what a controllable clock or fake timers can drive (the kit's
 * maintenance, a job round, an idempotency lock's expiry): a timer with a delay in a test's code (a
 * sleep, a polling loop's pause, a slow answer) is allowed only in the files listed here, each for
 * what it waits on: a real process, server, database or socket, whose time no fake timer moves.
 * A file whose timers are gone must leave the list, so the list stays the truth.
 */
const allowed: Record<string, string> = {
  // Fake timers: the delays below are moved by the test (vi.runAllTimersAsync), not waited.
  'packages/core/test/bounded-concurrency.test.ts':
    'fake timers (vi.useFakeTimers): each item ends after its delay',
  // Deadlines: a bound on a wait for a real process or socket, not a sleep.
  'packages/express/test/suites/hostile-requests.ts': 'a deadline on a raw socket to a real Express app',
  'packages/postgres/test-support/embedded-postgres-server.ts':
    "a deadline on the embedded PostgreSQL's start",
  'packages/s3/test/start-s3-servers.ts':
    "a deadline on s3rver's and moto_server's start, polling until they answer",
  'test-support/process-groups.ts': 'the grace period before a child process group is killed',
  'test-support/tcp-latency-proxy.ts': "the latency a real TCP proxy adds: the bench's and tests' link",
  // Child processes kept alive, answering slowly or polled: real processes' time.
  'packages/postgres/test/processes/claim-and-hang.ts': 'a child process that holds its claim until killed',
  'packages/postgres/test/processes/monitor-and-crash.ts': 'a child process that runs until killed',
  'examples/demo/test/processes/servers-then-failure.ts': 'a child process that runs until killed',
  'examples/demo/test/support/demo-process.ts': "polls a demo process's output for a line",
  'examples/demo/test/readme-webhook-step.test.ts':
    "polls the demo's and the receiver's output (two processes)",
  'examples/demo/test/harness-leaves-nothing-running.test.ts': 'polls until killed process groups are gone',
  'examples/demo/test/shutdown-under-webhook-load.test.ts':
    'a demo process shutting down under a real slow receiver',
  'examples/demo/test/webhooks-across-processes.test.ts':
    'two demo processes delivering through one PostgreSQL',
  'examples/demo/test/webhook-fairness.test.ts': "a demo process's deliveries to a real receiver, timed",
  'examples/demo/test/webhook-private-networks.test.ts':
    'a demo process delivering to a real receiver, polled',
  'examples/demo/test/demo-screening.test.ts': "a demo process's screening job loop, polled over HTTP",
  'examples/demo/test/demo-on-postgres.test.ts':
    "a demo process's redaction run at start, on a real PostgreSQL",
  'examples/demo/test/redaction-on-postgres-and-s3.test.ts':
    "polls until the job runner delivered the flow's webhooks, on PostgreSQL",
  'examples/demo/test/demo-database.test.ts': "a real PostgreSQL ending a pool's idle connections",
  'examples/host-app/test/portal-process.test.ts': "polls the portal process's output until it listens",
  'examples/host-app/test/access-log-redaction.test.ts':
    "a real HTTP server's loggers write when the answer finished, after the client read it",
  // A real database: locks held while another transaction waits, pg-boss polling with the database's clock.
  'packages/contract-tests/src/client-repository-contract.ts':
    'a lock held while another transaction waits for it',
  'packages/contract-tests/src/review-queue-contract.ts': 'a lock held while another transaction runs',
  'packages/contract-tests/src/event-log-contract.ts': 'a transaction left open while another commits',
  'packages/contract-tests/src/screening-fairness-contract.ts':
    "a provider answering after real delays, the same for memory's rounds and PostgreSQL's runner",
  'packages/memory/test/screening-fairness-in-memory.test.ts':
    "the fairness contract's runner: rounds between the provider's delays",
  'packages/postgres/test/concurrency.test.ts': 'a transaction holding a row lock on PostgreSQL',
  'packages/postgres/test/idempotency-claim-racing-redaction.test.ts':
    "polls PostgreSQL's pg_stat_activity until two claims wait on the redaction's row locks",
  'packages/postgres/test/database-restart.test.ts': 'PostgreSQL restarted under a pool',
  'packages/postgres/test/locked-read-after-a-wait.test.ts':
    "polls PostgreSQL's pg_stat_activity until the approve waits on the resubmission's row lock",
  'packages/postgres/test/job-runner-needs-a-transport.test.ts':
    'polls until a runner with a transport delivered, on PostgreSQL',
  'packages/postgres/test/postgres-job-runner.test.ts':
    "pg-boss's polls, retries and schedules on PostgreSQL's clock",
  'packages/postgres/test/webhook-jobs-across-runners.test.ts':
    "pg-boss's job expiry, judged by PostgreSQL's clock",
  'packages/postgres/test/screening-on-postgres.test.ts': "the job runner's screening on PostgreSQL, polled",
  'packages/postgres/test/screening-monitoring-on-postgres.test.ts':
    "the job runner's monitoring jobs on PostgreSQL, polled",
  'packages/postgres/test/screening-monitoring-crash.test.ts':
    "a runner taking over a crashed process's jobs on PostgreSQL",
  // Real servers, sockets and browsers.
  'packages/express/test/suites/idempotency.ts':
    "polls until a real Express app's first request reached its handler",
  'packages/review-console/test/browser/review-flow.ts': 'a real Chromium rendering the pages, polled',
  'packages/review-console/test/browser/review-on-memory.test.ts':
    'a real Chromium rendering the pages, polled',
  'packages/review-console/test/browser/review-on-postgres-and-s3.test.ts':
    "polls until pg-boss's screening job ran, on PostgreSQL",
  'packages/express/test/suites/in-flight-bodies.ts':
    "polls the byte budget a real server frees on its sockets' events",
  'packages/s3/test/one-use-upload.test.ts': "an S3-compatible server's object times, whole seconds",
  'packages/webhook-transport/test/node-webhook-transport.test.ts': 'a real receiver trickling its answer',
};

/** Every TypeScript file of the test code: tests, their support, the contract suites, the test servers. */
const testCode = (): string[] => {
  const under = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      return entry.isDirectory() ? under(path) : entry.name.endsWith('.ts') ? [path] : [];
    });
  return (
    [
      ...['packages', 'examples'].flatMap((folder) =>
        readdirSync(join(root, folder)).flatMap((name) =>
          ['test', 'test-support'].flatMap((sub) => {
            try {
              return under(join(folder, name, sub));
            } catch {
              return [];
            }
          }),
        ),
      ),
      ...under('packages/contract-tests/src'),
      ...under('test-support'),
      ...under('tools/test'),
    ]
      .map((path) => relative(root, join(root, path)))
      // This file names the forms it looks for.
      .filter((path) => path !== 'tools/test/no-real-time-waits.test.ts')
  );
};

/** The arguments of each call of `name(` in `code`, split at their top-level commas. */
const callsOf = (code: string, name: RegExp): string[][] =>
  [...code.matchAll(name)].map((match) => {
    const args: string[] = [];
    let depth = 0;
    let current = '';
    for (let index = (match.index ?? 0) + match[0].length; index < code.length; index += 1) {
      const char = code[index] ?? '';
      if ('([{'.includes(char)) depth += 1;
      if (')]}'.includes(char)) {
        if (depth === 0) break;
        depth -= 1;
      }
      if (char === ',' && depth === 0) {
        args.push(current.trim());
        current = '';
      } else current += char;
    }
    args.push(current.trim());
    return args;
  });

/**
 * A timer that waits: `setTimeout(…, ms)` or `setInterval(…, ms)` with any delay but a literal 0
 * (a 0 ms timer yields to the event loop, it waits no time), node's promise timers or its own
 * timers imported (fake timers do not move them), or vitest's polling (`expect.poll`,
 * `vi.waitFor`, `vi.waitUntil`: a pause of real time between tries).
 */
const waits = (code: string): boolean =>
  /timers\/promises|from 'node:timers'|\bexpect\s*\.poll\(|\bvi\.wait(?:For|Until)\(/.test(code) ||
  callsOf(code, /\bset(?:Timeout|Interval)\(/g).some((args) => args.length > 1 && args[1] !== '0');

const waitingFiles = () =>
  testCode().filter((path) =>
    waits(readFileSync(join(root, path), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')),
  );

test('the test code reads files at all (the check below has something to check)', () => {
  expect(testCode().length).toBeGreaterThan(100);
});

test('only the listed files wait real time, and every listed file still does', () => {
  const waiting = waitingFiles().sort();
  expect(
    waiting.filter((path) => !(path in allowed)),
    'waits real time without a reason listed',
  ).toEqual([]);
  expect(
    Object.keys(allowed).filter((path) => !waiting.includes(path)),
    'listed, but waits no more',
  ).toEqual([]);
});
