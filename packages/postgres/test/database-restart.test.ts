import { randomUUID } from 'node:crypto';
import { creationEntryFor, documentRecordFixture, storedClientFixture } from '@onboarding-kit/contract-tests';
import type { DomainError } from '@onboarding-kit/core';
import type { IdempotencyLockLost, StoredClient } from '@onboarding-kit/core/adapter';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kitTables } from '../src/kit-tables.js';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters, type PostgresAdapters } from '../src/postgres-adapters.js';
import {
  createFreshDatabase,
  type EmbeddedPostgresServer,
  startEmbeddedPostgres,
} from '../test-support/embedded-postgres-server.js';

// This file restarts its database, so it runs on a server of its own rather than the run's shared one.
let server: EmbeddedPostgresServer;
let pool: pg.Pool;
let adapters: PostgresAdapters;
const schema = 'restart_test';
const tables = kitTables(schema);

beforeAll(async () => {
  server = await startEmbeddedPostgres();
  const connectionString = await createFreshDatabase(server.adminConnectionString);
  pool = new pg.Pool({ connectionString, max: 8, connectionTimeoutMillis: 2_000 });
  (await migrate(pool, { schema }))._unsafeUnwrap();
  adapters = createPostgresAdapters({ pool, schema });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.dispose();
});

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Waits for what the workers record, not for a fixed time: a loaded machine only makes it slower. */
const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(10);
  }
};

type Outcome = {
  readonly at: number;
  readonly client: StoredClient;
  readonly error: DomainError | IdempotencyLockLost | null;
};

it('answers StorageUnavailable while the database restarts, recovers by itself, and never half-writes a client', async () => {
  const outcomes: Outcome[] = [];
  const thrown: unknown[] = [];
  let running = true;
  const createOne = async () => {
    const client = storedClientFixture({ managerId: `manager-${randomUUID()}`, clientType: 'ENTITY' });
    const document = documentRecordFixture(client, 'passport.pdf', 10);
    const result = await adapters.unitOfWork.transaction((stores) =>
      stores.documents
        .insertMany([document])
        .andThen(() => stores.clients.insert(client, creationEntryFor(client))),
    );
    outcomes.push({ at: Date.now(), client, error: result.isErr() ? result.error : null });
  };
  const worker = async () => {
    while (running) {
      await createOne().catch((error: unknown) => thrown.push(error));
      await pause(5);
    }
  };
  const workers = Array.from({ length: 6 }, worker);

  const succeededSince = (since: number) =>
    outcomes.filter((outcome) => outcome.error === null && outcome.at > since).length;
  await until(() => succeededSince(0) >= 10, 'creates before the stop');
  const stoppedAt = Date.now();
  await server.stop();
  await until(() => outcomes.some((outcome) => outcome.error !== null), 'a create to fail');
  await server.start();
  const restartedAt = Date.now();
  await until(() => succeededSince(restartedAt + 500) >= 10, 'creates after the restart');
  running = false;
  await Promise.all(workers);

  expect(thrown).toEqual([]);
  const failures = outcomes.filter((outcome) => outcome.error !== null);
  expect(failures.length).toBeGreaterThan(0);
  // A create whose connection died during its COMMIT cannot know whether it was kept.
  for (const failure of failures)
    expect(failure.error).toMatchObject({
      type: expect.stringMatching(/^(StorageUnavailable|CommitOutcomeUnknown)$/),
      store: 'postgres',
    });
  expect(
    outcomes.filter((outcome) => outcome.error === null && outcome.at < stoppedAt).length,
  ).toBeGreaterThan(0);
  // The pool replaced its broken connections by itself: creates succeed again after the restart.
  const recovered = outcomes.filter((outcome) => outcome.error === null && outcome.at > restartedAt);
  expect(recovered.length).toBeGreaterThan(0);
  expect(
    outcomes.filter((outcome) => outcome.at > restartedAt + 500).every((outcome) => outcome.error === null),
  ).toBe(true);

  // All or nothing: every stored client has every child row the command wrote, and every Ok create is stored.
  const stored = await pool.query(`
    SELECT c.id::text,
      (SELECT count(*) FROM ${tables.representatives} r WHERE r.client_id = c.id)::int AS representatives,
      (SELECT count(*) FROM ${tables.bankAccounts} b WHERE b.client_id = c.id)::int AS bank_accounts,
      (SELECT count(*) FROM ${tables.wallets} w WHERE w.client_id = c.id)::int AS wallets,
      (SELECT count(*) FROM ${tables.statusHistory} h WHERE h.client_id = c.id)::int AS history,
      (SELECT count(*) FROM ${tables.documents} d WHERE d.client_id = c.id)::int AS documents
    FROM ${tables.clients} c`);
  const written = new Map(outcomes.map((outcome) => [outcome.client.id, outcome.client]));
  for (const row of stored.rows) {
    const client = written.get(row.id);
    expect(row).toEqual({
      id: row.id,
      representatives: client?.companyRepresentatives?.length,
      bank_accounts: client?.bankAccounts.length,
      wallets: client?.blockchainWallets.length,
      history: 1,
      documents: 1,
    });
  }
  const storedIds = new Set(stored.rows.map((row) => row.id));
  for (const outcome of outcomes.filter((o) => o.error === null))
    expect(storedIds.has(outcome.client.id)).toBe(true);
  const orphans = await pool.query(
    `SELECT count(*)::int AS n FROM ${tables.documents} d WHERE NOT EXISTS (SELECT 1 FROM ${tables.clients} c WHERE c.id = d.client_id)`,
  );
  expect(orphans.rows[0]?.n).toBe(0);
}, 60_000);
