import { type ScreeningJob, type ScreeningJobQueue, storageUnavailable } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedJobEngineDatabase, screeningQueue } from './postgres-job-engine.js';
import { enqueueListChangeJobs } from './postgres-list-change-jobs.js';
import type { TransactionJobs } from './postgres-webhook-job-queue.js';
import type { Queryable } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/**
 * Screening jobs on pg-boss, sent through the command's own transaction so that they commit (or
 * roll back) with it; the queue's retry settings (migrate: 20 retries, exponential back-off) retry
 * a failed screening.
 */
export const createPostgresScreeningJobQueue = (
  db: Queryable,
  tables: KitTables,
  jobs: TransactionJobs,
): ScreeningJobQueue => {
  const { boss, jobExpirySeconds } = jobs;
  // pg-boss's insert, as webhook jobs (sendWebhookJob): the same row as its send, without send's checks.
  const send = (job: ScreeningJob) =>
    ResultAsync.fromPromise(
      boss.insert([{ name: screeningQueue, data: job, expireInSeconds: jobExpirySeconds }], {
        db: preparedJobEngineDatabase(db),
      }),
      unavailable,
    ).map(() => undefined);
  return {
    enqueueListChange: (version, listChangeJobs) =>
      enqueueListChangeJobs(db, tables, jobs, version, listChangeJobs),
    enqueueScreening: (clientId) => send({ type: 'screen-client', clientId }),
    enqueueNameIndexing: (job) => send(job),
  };
};
