import type { WebhookJob } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookQueue } from '../src/postgres-job-engine.js';
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
  it('the job of a manager with an endpoint rides in the statement of the command once the process has seen it', async () => {
    const { kit, principal, create, jobs } = await setup();
    // One statement (this create holds no idempotency key), with the check that the manager has
    // no endpoint.
    const noEndpoint = await create();
    expect(noEndpoint).toBe(1);
    expect(await jobs()).toEqual([]);
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    // That check now refuses the statement: the same writes go again in a transaction (BEGIN, the
    // writes asking which managers have an endpoint, the job, COMMIT).
    expect(await create()).toBe(noEndpoint + 4);
    expect(await jobs()).toHaveLength(1);
    // From then on the job is one more INSERT of the same statement, which checks the endpoint is there.
    expect(await create()).toBe(noEndpoint);
    expect(await create()).toBe(noEndpoint);
    expect(await jobs()).toHaveLength(3);
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
});
