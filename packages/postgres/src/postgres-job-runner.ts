import type { OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningJob, WebhookJob } from '@onboarding-kit/core/adapter';
import type { ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import { defaultSchema, kitTables } from './kit-tables.js';
import {
  createJobEngine,
  idempotencyPurgeQueue,
  orphanSweepQueue,
  retentionRedactionQueue,
  screeningQueue,
  webhookQueue,
} from './postgres-job-engine.js';
import { type QueueWorker, workQueue } from './postgres-queue-worker.js';
import { rankScreeningJobs } from './postgres-screening-turns.js';
import { statementsInFlight } from './statements-in-flight.js';

export type PostgresJobRunnerOptions = {
  readonly pool: Pool;
  /** The kit whose jobs this runner works: `kit.webhooks.runJob`, the purge and the sweep. */
  readonly kit: Pick<OnboardingKit, 'webhooks' | 'screening' | 'idempotency' | 'documents' | 'redaction'>;
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
  /**
   * Screening jobs in hand at once in this process (default 2): screening capacity grows with
   * this and with the number of runners. Managers take turns on the queue
   * (postgres-screening-turns.ts), so one manager's backlog holds another's screening back by at
   * most the jobs already running.
   */
  readonly screeningConcurrency?: number;
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
  /** Cron of the redaction of clients past their retention period (default hourly; null: never). */
  readonly retentionRedactionCron?: string | null;
  /** Errors of the engine itself (a lost connection while polling); default: ignored. */
  readonly onError?: (error: unknown) => void;
};

/**
 * A running job runner. `close` stops fetching, waits for the jobs in hand and for every statement
 * of the engine on its way, so that the pool may be ended once it resolves (a statement reaching an
 * ended pool would be an unhandled rejection inside pg-boss).
 */
export type PostgresJobRunner = {
  readonly boss: PgBoss;
  close(): Promise<void>;
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
  screeningConcurrency = 2,
  pollingIntervalSeconds = 0.5,
  maintenanceIntervalSeconds = 30,
  idempotencyPurgeCron = '* * * * *',
  orphanSweepCron = '17 * * * *',
  retentionRedactionCron = '41 * * * *',
  onError = () => undefined,
}: PostgresJobRunnerOptions): Promise<PostgresJobRunner> => {
  if (!kit.webhooks.hasTransport) {
    // No silent default: endpoints whose every attempt would fail are a wiring mistake.
    const { rows } = await pool.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${kitTables(schema).webhookEndpoints}) AS found`,
    );
    if (rows[0]?.found === true) {
      throw new TypeError(
        'the kit has webhook endpoints but no webhookTransport: pass one to createOnboardingKit ' +
          '(createNodeWebhookTransport() of @onboarding-kit/webhook-transport)',
      );
    }
  }
  // Every statement of the engine goes through `statements`, so that `close` can wait for the last.
  const statements = statementsInFlight(pool);
  const tables = kitTables(schema);
  const boss = createJobEngine(statements.db, tables.jobSchema, {
    migrate: false,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds,
  });
  boss.on('error', onError);
  await boss.start();
  try {
    await boss.schedule(idempotencyPurgeQueue, idempotencyPurgeCron);
    if (orphanSweepCron === null) await boss.unschedule(orphanSweepQueue);
    else await boss.schedule(orphanSweepQueue, orphanSweepCron);
    if (retentionRedactionCron === null) await boss.unschedule(retentionRedactionQueue);
    else await boss.schedule(retentionRedactionQueue, retentionRedactionCron);
  } catch (error) {
    // Nothing is fetched yet: the engine's maintenance and schedules are all there is to stop.
    await boss.stop({ graceful: false, close: false, wait: true });
    await statements.settled();
    throw error;
  }
  // The periodic work: one job per tick of its schedule, looked for every 2 s (as pg-boss's `work`).
  const periodic = (queue: string, runJob: () => ResultAsync<unknown, { readonly type: string }>) =>
    workQueue<object>(boss, queue, runJob, {
      batchSize: 1,
      maxJobsInHand: 1,
      workers: 1,
      pollingIntervalMs: 2_000,
      onError,
    });
  const queueWorkers: QueueWorker[] = [
    // A kit without a transport takes no webhook job: its attempts would all be recorded as failed.
    // The jobs wait for a runner whose kit has one (endpoints made after this one started included).
    ...(kit.webhooks.hasTransport
      ? [
          workQueue<WebhookJob>(boss, webhookQueue, (job, signal) => kit.webhooks.runJob(job, { signal }), {
            batchSize,
            maxJobsInHand,
            workers,
            pollingIntervalMs: pollingIntervalSeconds * 1000,
            onError,
          }),
        ]
      : []),
    // One client (or one batch of a list change) per job; a job that fails (the provider could not
    // screen) is retried by the engine with the queue's exponential back-off, its screening
    // meanwhile ERROR. Jobs are ranked into managers' turns before each fetch.
    workQueue<ScreeningJob>(boss, screeningQueue, (job) => kit.screening.runJob(job), {
      batchSize: 1,
      maxJobsInHand: Math.max(1, Math.floor(screeningConcurrency)),
      workers: 1,
      pollingIntervalMs: pollingIntervalSeconds * 1000,
      onError,
      beforeFetch: () => rankScreeningJobs(statements.db, tables, screeningQueue),
    }),
    periodic(idempotencyPurgeQueue, () => kit.idempotency.purgeExpired()),
    ...(orphanSweepCron === null
      ? []
      : [periodic(orphanSweepQueue, () => kit.documents.sweepOrphanDocuments())]),
    ...(retentionRedactionCron === null
      ? []
      : [periodic(retentionRedactionQueue, () => kit.redaction.redactExpired())]),
  ];

  const closeOnce = async () => {
    await Promise.all(queueWorkers.map((worker) => worker.stop()));
    // No pg-boss worker is left: this stops its maintenance and schedules, whose last run may
    // still be on its way (it reports its failures on 'error').
    await boss.stop({ graceful: false, close: false, wait: true });
    await statements.settled();
  };
  let closing: Promise<void> | undefined;
  return {
    boss,
    close: () => {
      closing ??= closeOnce();
      return closing;
    },
  };
};
