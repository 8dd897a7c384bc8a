import { randomUUID } from 'node:crypto';
import { creationEntryFor, storedClientFixture } from '@onboarding-kit/contract-tests';
import { ResultAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

const applicationName = `tx-loss-${randomUUID().slice(0, 8)}`;
let database: MigratedDatabase;
beforeAll(async () => {
  // One connection: what happens to it after the failure is visible in the pool's counts.
  database = await openMigratedDatabase({ pool: { max: 1, application_name: applicationName } });
});
afterAll(() => database.close());

it('answers StorageUnavailable when the connection dies mid-transaction, keeps nothing, and destroys that connection', async () => {
  const { adapters, pool } = database;
  const first = storedClientFixture({ managerId: randomUUID() });
  const second = storedClientFixture({ managerId: randomUUID() });
  const killer = new pg.Client({ connectionString: pool.options.connectionString });
  await killer.connect();
  try {
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(first, creationEntryFor(first))
        .andThen(() => stores.clients.findById(first.id))
        // Another session ends this transaction's backend, as a failover or an admin would.
        .andThen(() =>
          ResultAsync.fromSafePromise(
            killer.query(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE application_name = $1 AND state = 'idle in transaction'`,
              [applicationName],
            ),
          ),
        )
        .andThen(() => stores.clients.insert(second, creationEntryFor(second))),
    );
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
  } finally {
    await killer.end();
  }
  // The broken connection was destroyed, not handed back to the pool.
  expect(pool.totalCount).toBe(0);

  // Nothing of the transaction was kept, and the pool serves the next one on a new connection.
  const third = storedClientFixture({ managerId: randomUUID() });
  (
    await adapters.unitOfWork.transaction((stores) => stores.clients.insert(third, creationEntryFor(third)))
  )._unsafeUnwrap();
  const inspect = rawSqlInspector(pool, database.tables);
  expect(await inspect.readClient(first.id)).toBeNull();
  expect(await inspect.readClient(second.id)).toBeNull();
  expect(await inspect.readClient(third.id)).toEqual(third);
});
