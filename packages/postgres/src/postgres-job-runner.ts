import type { OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningJob, WebhookJob } from '@onboarding-kit/core/adapter';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import { defaultSchema, kitTables } from './kit-tables.js';
import {
  createJobEngine,
  idempotencyPurgeQueue,
  orphanSweepQueue,
  screeningQueue,
  webhookQueue,
} from './postgres-job-engine.js';

export type PostgresJobRunnerOptions = {
  readonly pool: Pool;
  /** The kit whose jobs this runner works: `kit.webhooks.runJob`, the purge and the sweep. */
  readonly kit: Pick<OnboardingKit, 'webhooks' | 'screening' | 'idempotency' | 'documents'>;
  /** Schema of the kit's tables, as given to `migrate` (default `onboarding_kit`). */
  readonly schema?: string;
  /** Webhook jobs taken per fetch (default 20). */
  readonly batchSize?: number;
  /**
   * Webhook jobs in hand at once (default 100). Each job runs on its own and a new fetch fills the
   * room a finished one left, so a job waiting on a slow receiver holds one place, not a batch.
   */
  readonly maxJobsInHand?: number;
  /** Parallel fetch loops on the webhook queue, sharing `maxJobsInHand` (default 1). */
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
 * Works the webhook queue with pg-boss's `fetch`, `complete` and `fail` rather than `work`: `work`
 * hands a batch to one handler and fetches again only once every job of it has ended, so one job
 * waiting on a receiver that never answers held its whole batch (and every event behind it) for
 * the attempt timeout, again and again. Here each job ends on its own and its place is filled by
 * the next fetch; a full fetch is followed by another at once, an empty or partial one by the
 * polling interval. Jobs of a process that dies are expired by the engine's supervision as before.
 */
const workWebhookQueue = (
  boss: PgBoss,
  kit: Pick<OnboardingKit, 'webhooks'>,
  {
    batchSize,
    maxJobsInHand,
    workers,
    pollingIntervalMs,
    onError,
  }: {
    readonly batchSize: number;
    readonly maxJobsInHand: number;
    readonly workers: number;
    readonly pollingIntervalMs: number;
    readonly onError: (error: unknown) => void;
  },
): { stop(): Promise<void> } => {
  let inHand = 0;
  let stopping = false;
  const running = new Set<Promise<void>>();
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...sleepers]) wake();
  };
  /** Waits `ms`, or less when a job ends (room came free) or the runner stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  // Jobs that ran are completed together, one statement for those that ended in the same turn of
  // the event loop (as `work` completed a batch); a crash before it runs them again (at least once).
  let ended: string[] = [];
  let completing: Promise<void> = Promise.resolve();
  const completeEnded = () => {
    if (ended.length === 0) return;
    const ids = ended;
    ended = [];
    completing = completing
      .then(() => boss.complete(webhookQueue, ids))
      .catch((error: unknown) => onError(error));
  };
  const complete = (id: string) => {
    ended.push(id);
    if (ended.length === 1) setImmediate(completeEnded);
  };

  const run = async (job: PgBoss.Job<WebhookJob>) => {
    try {
      const outcome = await kit.webhooks.runJob(job.data);
      // A failed job is retried by the engine.
      if (outcome.isErr())
        await boss.fail(webhookQueue, job.id, { message: failureOf(outcome.error).message });
      else complete(job.id);
    } catch (error) {
      onError(error);
    } finally {
      inHand -= 1;
      wakeAll();
    }
  };

  const fetchLoop = async () => {
    while (!stopping) {
      const room = Math.min(batchSize, maxJobsInHand - inHand);
      if (room <= 0) {
        await pause(pollingIntervalMs);
        continue;
      }
      inHand += room;
      let jobs: PgBoss.Job<WebhookJob>[] = [];
      try {
        jobs = await boss.fetch<WebhookJob>(webhookQueue, { batchSize: room });
      } catch (error) {
        onError(error);
      }
      inHand -= room - jobs.length;
      for (const job of jobs) {
        const started = run(job).finally(() => running.delete(started));
        running.add(started);
      }
      // A full fetch means a backlog: fetch again at once. Otherwise wait the polling interval.
      if (jobs.length < room && !stopping) await pause(pollingIntervalMs);
    }
  };
  const loops = Array.from({ length: Math.max(1, workers) }, fetchLoop);

  return {
    stop: async () => {
      stopping = true;
      wakeAll();
      await Promise.all(loops);
      await Promise.all([...running]);
      completeEnded();
      await completing;
    },
  };
};

/**
 * Works the kit's jobs on pg-boss over the kit's database: webhook delivery (any number of
 * processes share the queue; a job taken by a process that dies is run again after its expiry),
 * screening
 * and the periodic work on pg-boss schedules (one run per tick across all instances).
 */
export const startPostgresJobRunner = async ({
  pool,
  kit,
  schema = defaultSchema,
  batchSize = 20,
  maxJobsInHand = 100,
  workers = 1,
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

  const webhookJobs = workWebhookQueue(boss, kit, {
    batchSize,
    maxJobsInHand,
    workers,
    pollingIntervalMs: pollingIntervalSeconds * 1000,
    onError,
  });

  // One client per job; a job that fails (the provider could not screen) is retried by the engine
  // with the queue's exponential back-off, its screening meanwhile ERROR.
  await boss.work<ScreeningJob>(screeningQueue, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
    if (job === undefined) return;
    const screened = await kit.screening.runJob(job.data);
    if (screened.isErr()) throw failureOf(screened.error);
  });

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
    close: async () => {
      await webhookJobs.stop();
      await boss.stop({ graceful: true, close: false, wait: true, timeout: 15_000 });
    },
  };
};
