import { createHash, randomUUID } from 'node:crypto';
import {
  createRecordingWebhookTransport,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { kitTables } from '../src/kit-tables.js';
import { startPostgresOnboardingKit } from '../src/start-postgres-onboarding-kit.js';
import { countingPool, newSchemaName, workerDatabaseUrl } from './postgres-test-database.js';

/**
 * The one-call wiring on the real PostgreSQL of the worker: a schema that does not exist yet is
 * migrated, the kit works on it, the job runner runs, and what the call refuses leaves nothing
 * running. (The README's whole PostgreSQL + S3 block runs in examples/demo's readme-wiring test.)
 */
let pool: pg.Pool;
const started: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  pool = countingPool(await workerDatabaseUrl()).pool;
});
afterEach(async () => {
  for (const kit of started.splice(0)) await kit.close();
});
afterAll(() => pool.end());

const manager = (): ManagerPrincipal => ({ kind: 'manager', managerId: randomUUID() });

it('migrates a new schema, wires the kit on it and starts the job runner', async () => {
  const schema = newSchemaName();
  const memory = createMemoryAdapters();
  const onPostgres = await startPostgresOnboardingKit({
    pool,
    schema,
    documentStorage: memory.documentStorage,
  });
  started.push(onPostgres);
  const { rows } = await pool.query<{ name: string }>(
    `SELECT name FROM ${kitTables(schema).quotedSchema}.schema_migrations ORDER BY name LIMIT 1`,
  );
  expect(rows[0]?.name).toMatch(/^0001_/);
  expect(onPostgres.runner).not.toBeNull();
  expect(onPostgres.kit.webhooks.hasTransport).toBe(false);

  const creator = manager();
  memory.testing.putTemporaryFile(`manager:${creator.managerId}`, 'passport.pdf', new Uint8Array(8));
  const client = (
    await onPostgres.kit.clients.createIndividual(
      creator,
      exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
    )
  )._unsafeUnwrap();
  const stored = await pool.query<{ id: string }>(
    `SELECT id FROM ${kitTables(schema).clients} WHERE id = $1`,
    [client.id],
  );
  expect(stored.rows).toEqual([{ id: client.id }]);
  // Ids default to random UUIDs; keys are stored as Node's SHA-256 of the key.
  expect(client.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  (await onPostgres.kit.apiKeys.register('a-host-key', creator))._unsafeUnwrap();
  const digest = createHash('sha256').update('a-host-key').digest('hex');
  const key = await pool.query(`SELECT 1 FROM ${kitTables(schema).apiKeys} WHERE key_hash = $1`, [digest]);
  expect(key.rowCount).toBe(1);
  expect((await onPostgres.kit.apiKeys.authenticate('a-host-key'))._unsafeUnwrap()).toEqual(creator);
});

it('registering a key for a malformed principal is ValidationFailed, with nothing stored (it was a 503)', async () => {
  const schema = newSchemaName();
  const memory = createMemoryAdapters();
  const { kit, close } = await startPostgresOnboardingKit({
    pool,
    schema,
    documentStorage: memory.documentStorage,
    jobRunner: false,
  });
  started.push({ close });
  for (const principal of [
    { kind: 'manager' },
    { kind: 'client', clientId: 'c' },
    { kind: 'admin', id: 'a' },
  ]) {
    const outcome = await kit.apiKeys.register('a-key', principal as never);
    expect(outcome._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      reason: 'The principal is not valid',
    });
  }
  const { rowCount } = await pool.query(`SELECT 1 FROM ${kitTables(schema).apiKeys}`);
  expect(rowCount).toBe(0);
});

it('with jobRunner: false starts no runner, on a schema another start migrated', async () => {
  const schema = newSchemaName();
  const memory = createMemoryAdapters();
  started.push(await startPostgresOnboardingKit({ pool, schema, documentStorage: memory.documentStorage }));
  const second = await startPostgresOnboardingKit({
    pool,
    schema,
    documentStorage: memory.documentStorage,
    jobRunner: false,
  });
  expect(second.runner).toBeNull();
  await second.close();
});

it('refuses a kit with webhook endpoints and no transport, leaving no runner behind', async () => {
  const schema = newSchemaName();
  const memory = createMemoryAdapters();
  const first = await startPostgresOnboardingKit({
    pool,
    schema,
    documentStorage: memory.documentStorage,
    webhookTransport: createRecordingWebhookTransport(),
    jobRunner: false,
  });
  (
    await first.kit.webhooks.createEndpoint(manager(), { url: 'https://portal.example.com/hooks' })
  )._unsafeUnwrap();

  await expect(
    startPostgresOnboardingKit({ pool, schema, documentStorage: memory.documentStorage }),
  ).rejects.toThrow('the kit has webhook endpoints but no webhookTransport');
  const withTransport = await startPostgresOnboardingKit({
    pool,
    schema,
    documentStorage: memory.documentStorage,
    webhookTransport: createRecordingWebhookTransport(),
  });
  started.push(withTransport);
  expect(withTransport.kit.webhooks.hasTransport).toBe(true);
  expect(withTransport.runner).not.toBeNull();
});

it('a schema name PostgreSQL cannot take is refused before any SQL is sent', async () => {
  const memory = createMemoryAdapters();
  await expect(
    startPostgresOnboardingKit({ pool, schema: 'Not A Schema', documentStorage: memory.documentStorage }),
  ).rejects.toThrow(TypeError);
});

it('a failed migration rejects naming it, with the failure as its cause', async () => {
  const schema = newSchemaName();
  // A database that cannot be reached: the migration is the first statement sent.
  const closed = countingPool(await workerDatabaseUrl()).pool;
  await closed.end();
  const memory = createMemoryAdapters();
  const failed = startPostgresOnboardingKit({
    pool: closed,
    schema,
    documentStorage: memory.documentStorage,
  });
  await expect(failed).rejects.toThrow('onboarding-kit: could not migrate the database (StorageUnavailable)');
  await expect(failed).rejects.toMatchObject({ cause: { type: 'StorageUnavailable' } });
});
