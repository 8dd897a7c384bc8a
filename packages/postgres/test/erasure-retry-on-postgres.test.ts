import { runErasureRetryContract } from '@onboarding-kit/contract-tests';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

runErasureRetryContract({
  name: 'PostgreSQL',
  setup: async (ports = {}) => {
    const { kit, manager } = kitOnPostgres(database.adapters, ports);
    const storedAnswer = async (scope: string, key: string) => {
      const { rows } = await database.pool.query<{ outcome: string | null }>(
        `SELECT outcome::text AS outcome FROM ${database.tables.idempotency} WHERE scope = $1 AND idempotency_key = $2`,
        [scope, key],
      );
      return rows[0]?.outcome ?? null;
    };
    // Every row of the kit's schema and of its job schema, each cast to text.
    const dump = async () => {
      const tables = await database.pool.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables
         WHERE table_type = 'BASE TABLE' AND table_schema IN ($1, $2)`,
        [database.schema, database.tables.jobSchema],
      );
      const texts: string[] = [];
      for (const { table_schema, table_name } of tables.rows) {
        const rows = await database.pool.query<{ row: string }>(
          `SELECT t::text AS row FROM ${pg.escapeIdentifier(table_schema)}.${pg.escapeIdentifier(table_name)} t`,
        );
        texts.push(...rows.rows.map(({ row }) => `${table_name}: ${row}`));
      }
      return texts.join('\n');
    };
    return { kit, manager, storedAnswer, dump };
  },
});
