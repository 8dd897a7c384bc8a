import type { OnboardingKit } from '@onboarding-kit/core';
import type { WebhookJob } from '@onboarding-kit/core/adapter';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import { defaultSchema, kitTables } from './kit-tables.js';
import {
  createJobEngine,
  idempotencyPurgeQueue,
  orphanSweepQueue,
  webhookQueue,
} from './postgres-job-engine.js';

export type PostgresJobRunnerOptions = {
  readonly pool: Pool;
  /** The kit whose jobs this runner works: `kit.webhooks.runJob`, the purge and the sweep. */
  readonly kit: Pick<OnboardingKit, 'webhooks' | 'idempotency' | 'documents'>;
  /** Schema of the kit's tables, as given to `migrate` (default `onboarding_kit`). */
  readonly schema?: string;
  /** Webhook jobs taken per fetch, run at once (default 20). */
  readonly batchSize?: number;
  /** Parallel fetch loops on the webhook queue (default 2). */
  readonly workers?: number;
  /** How often an idle worker looks for jobs (default 0.5 s, pg-boss's shortest). */
  readonly pollingIntervalSeconds?: number;
  /**
   * How often the engine's maintenance runs (default 30 s): it fails jobs active past their
   * expiry, so that a job of a process that died is run again by another.
   */
  readonly maintenanceIntervalSeconds?: number;
  /** Cron of the idempotency purge (default every minute) and of the orphan sweep (default hourly). */
  readonly idempotencyPurgeCron?: string;
  readonly orphanSweepCron?: string | null;
  /** Errors of the engine itself (a lost connection while polling); default: ignored. */
  readonly onError?: (error: unknown) => void;
};

/** A running job runner; `close` stops fetching and waits for the jobs in hand. */
export type PostgresJobRunner = {
  readonly boss: PgBoss;
  close(): Promise<void>;
};

/** A kit error as the job's failure output (pg-boss keeps it on the job); never its cause's internals. */
const failureOf = (error: { readonly type: string }): Error => new Error(`The job failed: ${error.type}`);

/**
 * Works the kit's jobs on pg-boss over the kit's database: webhook delivery (any number of
 * processes share the queue; a job taken by a process that dies is run again after its expiry)
 * and the periodic work on pg-boss schedules (one run per tick across all instances).
 */
export const startPostgresJobRunner = async ({
  pool,
  kit,
  schema = defaultSchema,
  batchSize = 20,
  workers = 2,
  pollingIntervalSeconds = 0.5,
  maintenanceIntervalSeconds = 30,
  idempotencyPurgeCron = '* * * * *',
  orphanSweepCron = '17 * * * *',
  onError = () => undefined,
}: PostgresJobRunnerOptions): Promise<PostgresJobRunner> => {
  const boss = createJobEngine(pool, kitTables(schema).jobSchema, {
    migrate: false,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds,
  });
  boss.on('error', onError);
  await boss.start();

  const workWebhookJobs = (workerId: () => string | undefined) => async (jobs: PgBoss.Job<WebhookJob>[]) => {
    // Each job settles on its own: a failed one is retried by the engine, the others complete.
    await Promise.all(
      jobs.map(async (job) => {
        const outcome = await kit.webhooks.runJob(job.data);
        if (outcome.isErr())
          await boss.fail(webhookQueue, job.id, { message: failureOf(outcome.error).message });
      }),
    );
    // A full batch means a backlog: fetch again at once instead of after the polling interval
    // (pg-boss waits it after every fetch), so a worker keeps up with more than batchSize per interval.
    const id = workerId();
    if (jobs.length >= batchSize && id !== undefined) boss.notifyWorker(id);
  };
  for (let worker = 0; worker < workers; worker += 1) {
    let id: string | undefined;
    id = await boss.work<WebhookJob>(
      webhookQueue,
      { batchSize, pollingIntervalSeconds },
      workWebhookJobs(() => id),
    );
  }

  await boss.schedule(idempotencyPurgeQueue, idempotencyPurgeCron);
  await boss.work(idempotencyPurgeQueue, async () => {
    const purged = await kit.idempotency.purgeExpired();
    if (purged.isErr()) throw failureOf(purged.error);
  });
  if (orphanSweepCron === null) await boss.unschedule(orphanSweepQueue);
  else {
    await boss.schedule(orphanSweepQueue, orphanSweepCron);
    await boss.work(orphanSweepQueue, async () => {
      const swept = await kit.documents.sweepOrphanDocuments();
      if (swept.isErr()) throw failureOf(swept.error);
    });
  }

  return {
    boss,
    close: () => boss.stop({ graceful: true, close: false, wait: true, timeout: 15_000 }),
  };
};
