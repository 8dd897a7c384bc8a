import { runErasureRetryContract, storageKeysOf } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { everyRowAsText, type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

runErasureRetryContract({
  name: 'PostgreSQL',
  setup: async (ports = {}) => {
    const { kit, manager, memory, upload } = kitOnPostgres(database.adapters, ports);
    const storedAnswer = async (scope: string, key: string) => {
      const { rows } = await database.pool.query<{ outcome: string | null }>(
        `SELECT outcome::text AS outcome FROM ${database.tables.idempotency} WHERE scope = $1 AND idempotency_key = $2`,
        [scope, key],
      );
      return rows[0]?.outcome ?? null;
    };
    const dump = () => everyRowAsText(database);
    return {
      kit,
      manager,
      storedAnswer,
      dump,
      upload,
      storageKeys: () => storageKeysOf(memory.documentStorage, memory.testing.listTemporaryOwners()),
    };
  },
});
