import { randomUUID } from 'node:crypto';
import type { WebhookJob } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobEngine, defaultWebhookJobExpirySeconds, webhookQueue } from '../src/postgres-job-engine.js';
import { sendWebhookJob } from '../src/postgres-webhook-job-queue.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const setup = async () => {
  const { kit, receiver, principal, createClient } = webhookKitOnPostgres(database);
  /** One create; the statements it sent. */
  const create = async (): Promise<number> => {
    const before = database.queryCount();
    await createClient();
    return database.queryCount() - before;
  };
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
  return { kit, principal, create, jobs, sent: receiver.sent };
};

describe('webhook jobs sent by commands on PostgreSQL', () => {
  it('a create sends the job of a manager with an endpoint in its one statement, and none without', async () => {
    const { kit, principal, create, jobs } = await setup();
    // The claim on its upload, then one statement (this create holds no idempotency key), whether
    // the manager has an endpoint or not.
    expect(await create()).toBe(2);
    expect(await jobs()).toEqual([]);
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    expect(await create()).toBe(2);
    expect(await create()).toBe(2);
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

  it("the create's job row is the row pg-boss's own send writes (a pg-boss upgrade that changes it fails here)", async () => {
    const { kit, principal, create } = await setup();
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    await create();
    const boss = createJobEngine(database.pool, database.tables.jobSchema);
    const sentId = randomUUID();
    await sendWebhookJob(
      database.pool,
      { boss, jobExpirySeconds: defaultWebhookJobExpirySeconds },
      { type: 'deliver-events', eventIds: [sentId] },
    );
    const { rows } = await database.pool.query(
      `SELECT data, name, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key,
         singleton_on, expire_in::text, keep_until - start_after AS kept_for, dead_letter, policy,
         start_after <= now() AS started, output
       FROM ${database.tables.jobSchema}.job WHERE name = $1 ORDER BY created_on DESC LIMIT 2`,
      [webhookQueue],
    );
    const [bySend, byCreate] = rows;
    expect(bySend?.data).toEqual({ type: 'deliver-events', eventIds: [sentId] });
    expect(byCreate?.data.type).toBe('deliver-events');
    expect({ ...byCreate, data: null }).toEqual({ ...bySend, data: null });
  });
});
