import { runScreeningFairnessContract } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

runScreeningFairnessContract({
  name: 'postgres',
  setup: async (screening) => {
    const { kit } = kitOnPostgres(database.adapters, { screening });
    return {
      kit,
      startScreening: async (concurrency = 1) => {
        const runner = await startPostgresJobRunner({
          pool: database.pool,
          kit,
          schema: database.schema,
          screeningConcurrency: concurrency,
          pollingIntervalSeconds: 0.5,
        });
        return () => runner.close();
      },
    };
  },
});
