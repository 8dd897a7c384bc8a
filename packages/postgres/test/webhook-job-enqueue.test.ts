import { exampleIndividualPayload } from '@onboarding-kit/core';
import type { WebhookJob } from '@onboarding-kit/core/adapter';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { webhookQueue } from '../src/postgres-job-engine.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { recordingWebhookTransport, webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const setup = async () => {
  const { kit, receiver, principal, createClient } = webhookKitOnPostgres(database);
  // The webhook jobs sent since this setup (the schema is shared by the file's tests).
  const queued = async () =>
    (
      await database.pool.query<{ id: string; data: WebhookJob }>(
        `SELECT id, data FROM ${database.tables.jobSchema}.job WHERE name = $1 AND state = 'created'`,
        [webhookQueue],
      )
    ).rows;
  const earlier = new Set((await queued()).map(({ id }) => id));
  const jobs = async () => (await queued()).filter(({ id }) => !earlier.has(id)).map(({ data }) => data);
  return { kit, principal, create: createClient, jobs, sent: receiver.sent };
};

describe('webhook jobs sent by commands on PostgreSQL', () => {
  it('a create sends the job of a manager with an endpoint, and none without', async () => {
    const { kit, principal, create, jobs } = await setup();
    await create();
    expect(await jobs()).toEqual([]);
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    await create();
    await create();
    const sent = await jobs();
    expect(sent).toHaveLength(2);
    for (const job of sent) {
      expect(job).toEqual({ type: 'deliver-events', eventIds: [expect.any(String), expect.any(String)] });
    }
  });

  it('sends no job once the last endpoint is removed', async () => {
    const { kit, principal, create, jobs, sent } = await setup();
    const endpoint = (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    await create();
    const before = await jobs();
    expect(before).toHaveLength(1);
    (await kit.webhooks.deleteEndpoint(principal, endpoint.id))._unsafeUnwrap();
    await create();
    expect(await jobs()).toEqual(before);
    expect(sent).toEqual([]);
  });

  it('on a pool whose clients pipeline, a create still sends its job, in its transaction, with every row', async () => {
    const pool = new pg.Pool({ connectionString: database.connectionString, max: 2, pipeline: true });
    try {
      const adapters = createPostgresAdapters({ pool, schema: database.schema });
      const { kit, manager, upload } = kitOnPostgres(adapters, {
        webhookTransport: recordingWebhookTransport().transport,
      });
      const { jobs } = await setup();
      (
        await kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' })
      )._unsafeUnwrap();
      upload('pipelined.pdf');
      const created = (
        await kit.clients.createIndividual(
          manager,
          exampleIndividualPayload({ idDocuments: ['pipelined.pdf'] }),
        )
      )._unsafeUnwrap();
      expect(await jobs()).toEqual([
        { type: 'deliver-events', eventIds: [expect.any(String), expect.any(String)] },
      ]);
      expect((await database.adapters.clients.findById(created.id))._unsafeUnwrap()?.id).toBe(created.id);
      const events = await database.pool.query<{ type: string }>(
        `SELECT type FROM ${database.tables.events} WHERE client_id = $1 ORDER BY type`,
        [created.id],
      );
      expect(events.rows.map(({ type }) => type)).toEqual(['client.created', 'documents.promoted']);
    } finally {
      await pool.end();
    }
  });

  it('refuses a job expiry pg-boss would not take: whole seconds, under a day', () => {
    const { pool, schema } = database;
    for (const webhookJobExpirySeconds of [0, 1.5, 86_400])
      expect(() => createPostgresAdapters({ pool, schema, webhookJobExpirySeconds })).toThrow(TypeError);
    expect(() => createPostgresAdapters({ pool, schema, webhookJobExpirySeconds: 1 })).not.toThrow();
  });
});
