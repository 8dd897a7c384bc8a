import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DemoDatabase, openDemoDatabase } from './support/demo-database.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { type DemoProcess, spawnDemoProcess } from './support/demo-process.js';

/**
 * The proof: two demo processes on one PostgreSQL deliver every event of 200 creates to a
 * receiver that fails 30 % of attempts, while one of the processes is SIGKILLed mid-run. The
 * receiver deduplicates on webhook-id and checks each signature with its own HMAC (node:crypto,
 * not the kit's code nor the standardwebhooks package).
 */
const secret = `whsec_${randomBytes(32).toString('base64')}`;
let database: DemoDatabase;
const instances: DemoProcess[] = [];
let receiver: Server;

const signatureVerifies = (id: string, timestamp: string, body: string, header: string): boolean => {
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest();
  return header.split(' ').some((entry) => {
    const given = Buffer.from(entry.split(',')[1] ?? '', 'base64');
    return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
};

beforeAll(async () => {
  database = await openDemoDatabase();
});
afterAll(async () => {
  for (const instance of instances) instance.kill();
  await Promise.all(instances.map((instance) => instance.exited));
  receiver?.closeAllConnections();
  receiver?.close();
  await database.drop();
});

test('every event of 200 creates reaches a 30 %-failing receiver once deduplicated, though a process was killed', async () => {
  const received = new Map<string, { type: string; clientId: string }>();
  let attempts = 0;
  let refused = 0;
  let badSignatures = 0;
  const failuresOf = new Map<string, number>();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      attempts += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      if (
        !signatureVerifies(
          id,
          String(req.headers['webhook-timestamp']),
          body,
          String(req.headers['webhook-signature']),
        )
      ) {
        badSignatures += 1;
        res.writeHead(400).end();
        return;
      }
      // About 30 % of attempts fail, but no event more than twice in a row: the third attempt comes
      // 7.5–15 s after the second (the backoff), a fourth would be over a minute later.
      const failures = failuresOf.get(id) ?? 0;
      if (failures < 2 && Math.random() < 0.35) {
        failuresOf.set(id, failures + 1);
        refused += 1;
        res.writeHead(503).end();
        return;
      }
      const event = JSON.parse(body) as {
        type: string;
        data: { client?: { id: string }; clientId?: string };
      };
      received.set(id, { type: event.type, clientId: event.data.client?.id ?? event.data.clientId ?? '' });
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const env = {
    DATABASE_URL: database.url,
    WEBHOOK_URL: webhookUrl,
    WEBHOOK_SECRET: secret,
    WEBHOOK_JOB_EXPIRY_SECONDS: '4',
  };
  const listening = /listening on (http:\/\/localhost:\d+)/;
  // One after the other: the first registers WEBHOOK_URL, the second finds it.
  instances.push(spawnDemoProcess(env));
  const first = (await instances[0]?.waitFor(listening, 60_000))?.[1] ?? '';
  instances.push(spawnDemoProcess(env));
  const second = (await instances[1]?.waitFor(listening, 60_000))?.[1] ?? '';
  const managerKey = demoIdentities.managerA.apiKey;

  const createOn = async (origin: string, index: number): Promise<string | null> => {
    const name = `passport-${index}.pdf`;
    try {
      await uploadThroughLinks(demoCaller(origin), managerKey, { [name]: sampleBytes(500, index) });
      const response = await fetch(`${origin}/manager/v1/clients/individuals`, {
        method: 'POST',
        headers: { SERVICE_API_KEY: managerKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(exampleIndividualPayload({ idDocuments: [name] })),
      });
      return response.status === 201 ? ((await response.json()) as { id: string }).id : null;
    } catch {
      return null; // The killed process answers nothing.
    }
  };

  // 100 creates on each, 8 at a time; the second process is killed when it has made 40.
  const created: string[] = [];
  let madeOnSecond = 0;
  const run = async (origin: string, offset: number, onCreated: () => void) => {
    for (let batch = 0; batch < 100; batch += 8) {
      const ids = await Promise.all(
        Array.from({ length: Math.min(8, 100 - batch) }, (_, i) => createOn(origin, offset + batch + i)),
      );
      for (const id of ids)
        if (id !== null) {
          created.push(id);
          onCreated();
        }
    }
  };
  await Promise.all([
    run(first, 0, () => undefined),
    run(second, 1000, () => {
      madeOnSecond += 1;
      if (madeOnSecond === 40) instances[1]?.kill();
    }),
  ]);
  expect(created.length).toBeGreaterThanOrEqual(140);

  // Every committed create has its two events (client.created, documents.promoted) in the outbox…
  const pool = database.pool(1);
  try {
    const { rows } = await pool.query<{ event_id: string }>(
      'SELECT event_id FROM onboarding_kit.client_events WHERE manager_id = $1',
      [demoIdentities.managerA.principal.managerId],
    );
    const committed = new Set(rows.map((row) => row.event_id));
    expect(committed.size).toBeGreaterThanOrEqual(created.length * 2);

    // …and each reaches the receiver, through retries and the killed process's abandoned jobs.
    const deadline = Date.now() + 90_000;
    while ([...committed].some((id) => !received.has(id)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const missing = [...committed].filter((id) => !received.has(id));
    const states = await pool.query(
      'SELECT event_id, status, attempts, last_error, next_attempt_at FROM onboarding_kit.webhook_deliveries WHERE event_id = ANY($1::uuid[])',
      [missing],
    );
    expect({ missing, states: states.rows }).toEqual({ missing: [], states: [] });
    expect(badSignatures).toBe(0);
    expect(refused).toBeGreaterThan(0);
    expect(attempts).toBeGreaterThan(received.size);
    for (const clientId of created) {
      expect(
        [...received.values()]
          .filter((event) => event.clientId === clientId)
          .map((e) => e.type)
          .sort(),
      ).toEqual(['client.created', 'documents.promoted']);
    }
  } finally {
    await pool.end();
  }
}, 240_000);
