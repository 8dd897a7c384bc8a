import {
  type ListChangeJob,
  type StorageUnavailable,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedJobEngineDatabase, screeningQueue } from './postgres-job-engine.js';
import type { TransactionJobs } from './postgres-webhook-job-queue.js';
import type { Queryable } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/**
 * How long a monitoring job may stay active before the engine takes it for abandoned and runs it
 * again: a batch of changed targets takes seconds, and a rerun adds no hit twice.
 */
const LIST_CHANGE_JOB_EXPIRY_SECONDS = 15 * 60;

/**
 * Enqueues a list version's monitoring jobs on the screening queue, in the caller's transaction,
 * unless the version has a row already: the row's insert waits for a concurrent one of the same
 * version to commit, and then finds it, so that one process enqueues each version.
 */
export const enqueueListChangeJobs = (
  db: Queryable,
  tables: KitTables,
  { boss }: TransactionJobs,
  version: string,
  jobs: readonly ListChangeJob[],
): ResultAsync<boolean, StorageUnavailable> =>
  ResultAsync.fromPromise(
    (async () => {
      const recorded = await db.query(
        `INSERT INTO ${tables.screeningListVersions} (version, changed_targets, batches) VALUES ($1, $2, $3)
         ON CONFLICT (version) DO NOTHING RETURNING version`,
        [version, jobs.reduce((sum, job) => sum + job.targets.length, 0), jobs.length],
      );
      if (recorded.rowCount === 0) return false;
      // pg-boss's insert takes many jobs in one statement; a few hundred a statement keeps it small.
      for (let start = 0; start < jobs.length; start += 200) {
        await boss.insert(
          jobs.slice(start, start + 200).map((data) => ({
            name: screeningQueue,
            data,
            expireInSeconds: LIST_CHANGE_JOB_EXPIRY_SECONDS,
          })),
          { db: preparedJobEngineDatabase(db) },
        );
      }
      return true;
    })(),
    unavailable,
  );
