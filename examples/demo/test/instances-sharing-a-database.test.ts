import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tryItOutIds } from '../src/try-it-out-seed.js';
import { openDemoDatabase } from './support/demo-database.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { type DemoProcess, spawnDemoProcess } from './support/demo-process.js';

/**
 * Two app instances behind a load balancer on one PostgreSQL: two demo processes, each
 * with its own memory document storage holding the same uploaded file, receive 200 creates with one
 * Idempotency-Key and one body at once, 100 each.
 */
let database: Awaited<ReturnType<typeof openDemoDatabase>>;
const instances: DemoProcess[] = [];
beforeAll(async () => {
  database = await openDemoDatabase();
});
afterAll(async () => {
  for (const instance of instances) instance.kill();
  await Promise.all(instances.map((instance) => instance.exited));
  await database.drop();
});

test('200 parallel same-key creates across two processes sharing the database make exactly one client', async () => {
  const managerKey = demoIdentities.managerA.apiKey;
  for (let i = 0; i < 2; i += 1) instances.push(spawnDemoProcess({ DATABASE_URL: database.url }));
  const origins = await Promise.all(
    instances.map(
      async (instance) => (await instance.waitFor(/listening on (http:\/\/localhost:\d+)/, 60_000))[1] ?? '',
    ),
  );
  for (const origin of origins) {
    await uploadThroughLinks(demoCaller(origin), managerKey, { 'passport.pdf': sampleBytes(2_000, 3) });
  }

  const body = JSON.stringify(exampleIndividualPayload({ idDocuments: ['passport.pdf'] }));
  const answers = await Promise.all(
    Array.from({ length: 200 }, async (_, index) => {
      const response = await fetch(`${origins[index % 2]}/manager/v1/clients/individuals`, {
        method: 'POST',
        headers: {
          SERVICE_API_KEY: managerKey,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'one-key-for-two-instances',
        },
        body,
      });
      const answer = (await response.json()) as { id?: string; code?: string };
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), answer };
    }),
  );

  const created = answers.filter((a) => a.status === 201);
  const inProgress = answers.filter((a) => a.status === 409);
  expect(created.length + inProgress.length).toBe(200);
  expect(inProgress.every((a) => a.answer.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS')).toBe(true);
  expect(created.filter((a) => a.replayed !== 'true')).toHaveLength(1);
  const clientIds = new Set(created.map((a) => a.answer.id));
  expect(clientIds.size).toBe(1);

  const inspector = new pg.Client({ connectionString: database.url });
  await inspector.connect();
  try {
    const { rows } = await inspector.query<{ id: string }>(
      // Besides the seeded clients a1 and a2.
      'SELECT id FROM onboarding_kit.clients WHERE id <> ALL($1::uuid[])',
      [[demoIdentities.clientA1.principal.clientId, tryItOutIds.clientA2Id]],
    );
    expect(rows.map((row) => row.id)).toEqual([...clientIds]);
    const history = await inspector.query(
      'SELECT count(*)::int AS n FROM onboarding_kit.client_status_history WHERE client_id = $1',
      [rows[0]?.id],
    );
    expect(history.rows[0]).toEqual({ n: 1 });
  } finally {
    await inspector.end();
  }
});
