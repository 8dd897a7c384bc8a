import { createRecordingWebhookTransport } from '@onboarding-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * No silent default: a kit without a webhook transport sends nothing, so a runner on a store that
 * holds webhook endpoints refuses to start (each attempt would otherwise be recorded as failed).
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
