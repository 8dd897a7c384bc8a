import { randomUUID } from 'node:crypto';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tryItOutIds } from '../src/try-it-out-seed.js';
import { openDemoDatabase } from './support/demo-database.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { startTestDemo } from './support/test-demo.js';

let database: Awaited<ReturnType<typeof openDemoDatabase>>;
let databaseUrl: string;
let inspector: pg.Client;
beforeAll(async () => {
  database = await openDemoDatabase();
  databaseUrl = database.url;
  inspector = new pg.Client({ connectionString: databaseUrl });
  await inspector.connect();
});
afterAll(async () => {
  await inspector.end();
  await database.drop();
});

/** What is in the demo's tables, read straight from PostgreSQL. */
const tableContents = async () => {
  const rows = async (sql: string) => (await inspector.query(sql)).rows;
  return {
    clients: await rows('SELECT id, manager_id, status FROM onboarding_kit.clients ORDER BY id'),
    statusHistory: await rows('SELECT count(*)::int AS entries FROM onboarding_kit.client_status_history'),
    presetFees: await rows('SELECT id, manager_id FROM onboarding_kit.preset_fees ORDER BY id'),
    apiKeys: await rows('SELECT count(*)::int AS keys FROM onboarding_kit.api_keys'),
  };
};

test('with DATABASE_URL: migrated and seeded at start; a restart keeps every client and duplicates nothing', async () => {
  const managerKey = demoIdentities.managerA.apiKey;
  const first = await startTestDemo({ DATABASE_URL: databaseUrl });
  let createdId: string;
  try {
    expect(first.adapters.persistence).toBe('postgres');
    const call = demoCaller(first.origin);
    await uploadThroughLinks(call, managerKey, { 'passport.pdf': sampleBytes(4_000, 5) });
    const created = await call('POST', '/manager/v1/clients/individuals', {
      key: managerKey,
      body: exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(created.status).toBe(201);
    createdId = created.body.id;
    expect(first.logged).toEqual([]);
  } finally {
    await first.close();
  }

  const afterFirstStart = await tableContents();
  // Clients a1 and a2 and the created one; 4 fees per manager; the four demo keys.
  expect(afterFirstStart.clients.map((row) => row.id).sort()).toEqual(
    [demoIdentities.clientA1.principal.clientId, tryItOutIds.clientA2Id, createdId].sort(),
  );
  expect(afterFirstStart.presetFees).toHaveLength(8);
  expect(afterFirstStart.apiKeys).toEqual([{ keys: 4 }]);
  expect(afterFirstStart.statusHistory).toEqual([{ entries: 3 }]);

  const second = await startTestDemo({ DATABASE_URL: databaseUrl });
  try {
    expect(await tableContents()).toEqual(afterFirstStart);
    // And through the API: the client of the first run, the same fees, every key still valid.
    const call = demoCaller(second.origin);
    const listed = await call('GET', '/manager/v1/clients?limit=100', { key: managerKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((client: { id: string }) => client.id).sort()).toEqual(
      [demoIdentities.clientA1.principal.clientId, tryItOutIds.clientA2Id, createdId].sort(),
    );
    for (const identity of [demoIdentities.managerB, demoIdentities.clientA1, demoIdentities.compliance]) {
      const path =
        identity.principal.kind === 'manager'
          ? '/manager/v1/preset-fees'
          : identity.principal.kind === 'client'
            ? '/client/v1/uploads'
            : `/compliance/v1/clients/${createdId}/approve`;
      const answer = await call(identity.principal.kind === 'compliance' ? 'POST' : 'GET', path, {
        key: identity.apiKey,
      });
      expect({ key: identity.apiKey, status: answer.status }).toEqual({ key: identity.apiKey, status: 200 });
    }
    expect(second.logged).toEqual([]);
  } finally {
    await second.close();
  }
});

test('with DATABASE_URL: the retention redaction runs only on the job engine schedule, never on a timer of each process', async () => {
  const { principal: manager } = demoIdentities.managerA;
  const clientId = demoIdentities.clientA1.principal.clientId;
  const first = await startTestDemo({ DATABASE_URL: databaseUrl });
  try {
    (await first.kit.clients.delete(manager, clientId))._unsafeUnwrap();
  } finally {
    await first.close();
  }
  // Deleted past any retention period: a redaction run now would redact it.
  await inspector.query(
    `UPDATE onboarding_kit.clients SET deleted_at = now() - interval '100 years' WHERE id = $1`,
    [clientId],
  );
  const second = await startTestDemo({ DATABASE_URL: databaseUrl });
  try {
    // A timer runs at start (then hourly); the schedule only at minute 41. Long enough for a run
    // at start to have redacted the client (it takes milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { rows } = await inspector.query('SELECT redacted_at FROM onboarding_kit.clients WHERE id = $1', [
      clientId,
    ]);
    expect(rows).toEqual([{ redacted_at: null }]);
    // It was due: the run the schedule makes redacts it.
    expect((await second.kit.redaction.redactExpired())._unsafeUnwrap()).toBe(1);
    const cron = await inspector.query('SELECT cron FROM onboarding_kit_jobs.schedule WHERE name = $1', [
      'onboarding-kit-retention-redaction',
    ]);
    expect(cron.rows).toEqual([{ cron: '41 * * * *' }]);
  } finally {
    await second.close();
  }
});
