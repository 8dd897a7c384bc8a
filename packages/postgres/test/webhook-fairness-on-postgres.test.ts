import { runWebhookFairnessContract } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

runWebhookFairnessContract({
  name: 'postgres',
  setup: async (webhookTransport) => {
    const { kit } = kitOnPostgres(database.adapters, { webhookTransport });
    return {
      kit,
      startDelivering: async () => {
        const runner = await startPostgresJobRunner({
          pool: database.pool,
          kit,
          schema: database.schema,
          batchSize: 1,
          maxJobsInHand: 1,
          pollingIntervalSeconds: 0.5,
          orphanSweepCron: null,
          retentionRedactionCron: null,
        });
        return () => runner.close();
      },
    };
  },
});
