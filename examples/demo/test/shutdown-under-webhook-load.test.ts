import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DemoDatabase, openDemoDatabase } from './support/demo-database.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { type DemoProcess, spawnDemoProcess } from './support/demo-process.js';

/**
 * The load that once left 3,115 due webhook jobs undrained and a demo deaf to SIGTERM for 2.5
 * minutes: receivers that answer just below the kit's "slow" mark (3 s of a 10 s attempt timeout),
 * that fail at once, and that never answer; two demo processes on one PostgreSQL; one SIGKILLed in
 * the middle, the other SIGTERMed. The cause: a runner held its jobs (up to 100) while their
 * attempts waited, two at a time, for a slow-but-not-too-slow endpoint, and fetched nothing else
 * meanwhile; its close waited for every one of them (here over 60 s before the fix; about 5 s after,
 * as attempts that wait are now put off at once on close, and never wait over one attempt timeout).
 */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt already sent ends within its timeout; the HTTP server's grace is 5 s; a margin. */
const SHUTDOWN_BOUND_MS = ATTEMPT_TIMEOUT_MS + 5_000 + 3_000;
const managerKey = demoIdentities.managerA.apiKey;
const CREATES = 30;

let database: DemoDatabase;
const processes: DemoProcess[] = [];
const servers: Server[] = [];
const sockets = new Set<Socket>();
beforeAll(async () => {
  database = await openDemoDatabase();
});
afterAll(async () => {
  for (const demo of processes) demo.kill();
  await Promise.all(processes.map((demo) => demo.exited));
  for (const socket of sockets) socket.destroy();
  for (const server of servers) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close();
  }
  await database.drop();
});

const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
};

/** Answers `status` after `delayMs`; counts the requests. */
const receiver = async (status: number, delayMs: number) => {
  let requests = 0;
  const url = await listen(
    createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        setTimeout(() => res.writeHead(status).end(), delayMs);
      });
    }),
  );
  return { url, requests: () => requests };
};

/**
 * SIGTERM to the demo's node process itself, as an orchestrator signals a service. The demo runs as
 * one process (support/demo-process.ts); this test once looked for a tsx wrapper's child and, after
 * the wrapper was gone, signalled none (the demo ran on for 60 s).
 */
const terminate = (demo: DemoProcess): void => {
  const { pid } = demo.child;
  if (pid === undefined) throw new Error('the demo process has no pid');
  process.kill(pid, 'SIGTERM');
};

const hangingReceiver = async () =>
  listen(
    createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.resume();
    }) as unknown as Server,
  );

test('under slow, failing and hanging receivers, a SIGTERMed demo stops within one attempt timeout and the queue keeps draining after a SIGKILL', async () => {
  const slow = await Promise.all([receiver(204, 3_000), receiver(204, 3_000)]);
  const failing = await receiver(500, 0);
  const hanging = await hangingReceiver();
  const env = {
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_JOB_EXPIRY_SECONDS: '30',
  };
  const listening = /listening on (http:\/\/localhost:\d+)/;
  const start = async () => {
    const demo = spawnDemoProcess(env);
    processes.push(demo);
    return { demo, origin: (await demo.waitFor(listening, 60_000))[1] ?? '' };
  };
  const first = await start();
  const call = demoCaller(first.origin);
  for (const url of [...slow.map((r) => r.url), failing.url, hanging]) {
    expect(
      (await call('POST', '/manager/v1/webhook-endpoints', { key: managerKey, body: { url } })).status,
    ).toBe(201);
  }
  // 30 creates: 60 events, 60 deliveries to each endpoint (90 s to each slow one, two at a time).
  for (let n = 0; n < CREATES; n += 1) {
    const filename = `passport-${n}.pdf`;
    await uploadThroughLinks(call, managerKey, { [filename]: sampleBytes(256, n) });
    const created = await call('POST', '/manager/v1/clients/individuals', {
      key: managerKey,
      body: exampleIndividualPayload({ idDocuments: [filename] }),
    });
    expect(created.status).toBe(201);
  }
  const second = await start();
  // Both hold jobs; the slow receivers are busy.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  expect(slow.every((r) => r.requests() > 0)).toBe(true);
  second.demo.kill();

  const stopping = Date.now();
  terminate(first.demo);
  const code = await Promise.race([
    first.demo.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
  ]);
  const tookMs = Date.now() - stopping;
  console.log(`SIGTERM under load: exited ${code} after ${tookMs} ms`);
  expect.soft({ code, within: tookMs <= SHUTDOWN_BOUND_MS }).toEqual({ code: 0, within: true });

  // A third process takes over: the due jobs drain, whatever the backlog of the slow receivers (the
  // jobs the killed process held come back after their 30 s expiry).
  const third = await start();
  const jobs = database.pool(1);
  try {
    const overdue = async () =>
      (
        await jobs.query<{ overdue: number }>(
          `SELECT count(*)::int AS overdue FROM onboarding_kit_jobs.job
           WHERE name = 'onboarding-kit-webhooks' AND state IN ('created', 'retry')
             AND start_after < now() - make_interval(secs => $1)`,
          [(ATTEMPT_TIMEOUT_MS * 2) / 1000],
        )
      ).rows[0]?.overdue;
    const samples: Array<number | undefined> = [];
    for (let i = 0; i < 10; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      samples.push(await overdue());
    }
    console.log(
      `due webhook jobs not taken for ${(ATTEMPT_TIMEOUT_MS * 2) / 1000} s, every 3 s: ${samples.join(', ')}`,
    );
    expect(samples.slice(-3)).toEqual([0, 0, 0]);
  } finally {
    await jobs.end();
  }
  terminate(third.demo);
  expect(await third.demo.exited).toBe(0);
}, 240_000);
