import { runScreeningMonitoringContract } from '@onboarding-kit/contract-tests';
import type { IndexedScreeningName } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { screeningQueue } from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { countingPool, type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

/** The screening jobs not finished yet: waiting, waiting for a retry, or running. */
const unfinishedJobs = async () =>
  Number(
    (
      await database.pool.query<{ count: string }>(
        `SELECT count(*) FROM ${database.tables.jobSchema}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [screeningQueue],
      )
    ).rows[0]?.count,
  );

runScreeningMonitoringContract({
  name: 'postgres',
  setup: async (list) => {
    const { kit, memory } = kitOnPostgres(database.adapters, { screening: list });
    // The other process: its own pool, adapters, kit and job runner on the same database.
    const other = countingPool(database.connectionString);
    const otherProcess = kitOnPostgres(
      createPostgresAdapters({ pool: other.pool, schema: database.schema }),
      { screening: list },
      memory,
    ).kit;
    const runners = await Promise.all([
      startPostgresJobRunner({
        pool: database.pool,
        kit,
        schema: database.schema,
        pollingIntervalSeconds: 0.5,
      }),
      startPostgresJobRunner({
        pool: other.pool,
        kit: otherProcess,
        schema: database.schema,
        pollingIntervalSeconds: 0.5,
      }),
    ]);
    return {
      kit,
      otherProcess,
      runJobs: async () => {
        const deadline = Date.now() + 30_000;
        while ((await unfinishedJobs()) > 0) {
          if (Date.now() > deadline) throw new Error('screening jobs still unfinished after 30 s');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      inspect: {
        readScreenedNames: async (clientId) =>
          (
            await database.pool.query<IndexedScreeningName & { birth_date: string | null }>(
              `SELECT field, name, kind, country, birth_date, keys FROM ${database.tables.screenedNames} WHERE client_id = $1 ORDER BY field`,
              [clientId],
            )
          ).rows.map(({ field, name, kind, country, birth_date, keys }) => ({
            field,
            name,
            kind,
            ...(country == null ? {} : { country }),
            ...(birth_date == null ? {} : { birthDate: birth_date }),
            keys,
          })),
        forgetScreenedNames: async (clientId) => {
          await database.pool.query(`DELETE FROM ${database.tables.screenedNames} WHERE client_id = $1`, [
            clientId,
          ]);
        },
        countListChangeJobs: async (version) =>
          Number(
            (
              await database.pool.query<{ count: string }>(
                `SELECT count(*) FROM ${database.tables.jobSchema}.job
                 WHERE name = $1 AND data->>'type' = 'monitor-list-change' AND data->>'version' = $2`,
                [screeningQueue, version],
              )
            ).rows[0]?.count,
          ),
      },
      teardown: async () => {
        await Promise.all(runners.map((runner) => runner.close()));
        await other.pool.end();
      },
    };
  },
});
