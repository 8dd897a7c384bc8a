import { createRecordingWebhookTransport, exampleIndividualPayload } from '@onboarding-kit/core';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * No silent default: a kit without a webhook transport sends nothing, so a runner on a store that
 * holds webhook endpoints refuses to start (each attempt would otherwise be recorded as failed), and
 * a runner started without one takes no webhook job.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

it('starts without a transport while no endpoint exists, and refuses once one does', async () => {
  const { kit, manager } = kitOnPostgres(database.adapters);
  expect(kit.webhooks.hasTransport).toBe(false);
  const runner = await startPostgresJobRunner({ pool: database.pool, kit, schema: database.schema });
  await runner.close();

  (await kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' }))._unsafeUnwrap();
  await expect(startPostgresJobRunner({ pool: database.pool, kit, schema: database.schema })).rejects.toThrow(
    'the kit has webhook endpoints but no webhookTransport',
  );

  const withTransport = kitOnPostgres(database.adapters, {
    webhookTransport: createRecordingWebhookTransport(),
  });
  expect(withTransport.kit.webhooks.hasTransport).toBe(true);
  const started = await startPostgresJobRunner({
    pool: database.pool,
    kit: withTransport.kit,
    schema: database.schema,
  });
  await started.close();
});

it('a runner without a transport takes no webhook job: an endpoint made after its start is served by a runner with one', async () => {
  const own = await openMigratedDatabase();
  const runners: Array<{ close(): Promise<void> }> = [];
  try {
    const { kit, manager, upload } = kitOnPostgres(own.adapters);
    const options = { pool: own.pool, schema: own.schema, pollingIntervalSeconds: 0.1 };
    // The runner without a transport on a pool that counts its fetches (pg-boss's `SKIP LOCKED`).
    const enoughFetches = 10;
    let fetches = 0;
    let fetchedEnough: () => void = () => undefined;
    const polledEnough = new Promise<void>((resolve) => {
      fetchedEnough = resolve;
    });
    const counting = {
      query: (statement: string | { text: string }, values?: unknown[]) => {
        if ((typeof statement === 'string' ? statement : statement.text).includes('SKIP LOCKED')) {
          fetches += 1;
          if (fetches === enoughFetches) fetchedEnough();
        }
        return own.pool.query(statement, values);
      },
    } as unknown as Pool;
    runners.push(await startPostgresJobRunner({ ...options, pool: counting, kit }));
    const endpoint = (
      await kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    upload('passport.pdf');
    (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    // Many polls of the runner without a transport: before, it took the job and recorded a failed
    // attempt ("connection failed") at the first.
    await polledEnough;
    expect((await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data).toEqual([]);

    const transport = createRecordingWebhookTransport();
    const sender = kitOnPostgres(own.adapters, { webhookTransport: transport });
    runners.push(await startPostgresJobRunner({ ...options, kit: sender.kit }));
    const deliveries = async () =>
      (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    await expect
      .poll(
        async () => {
          const statuses = (await deliveries()).map((delivery) => delivery.status);
          return statuses.length > 0 && statuses.every((status) => status === 'succeeded');
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    // Each event sent once, by the runner with a transport, at its first attempt.
    const delivered = await deliveries();
    expect(transport.sent).toHaveLength(delivered.length);
    for (const delivery of delivered) expect(delivery.attempts).toBe(1);
  } finally {
    for (const runner of runners) await runner.close();
    await own.close();
  }
});
