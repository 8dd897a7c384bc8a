import { storageUnavailable, type WebhookJob, type WebhookJobQueue } from '@onboarding-kit/core';
import { okAsync, ResultAsync } from 'neverthrow';
import type PgBoss from 'pg-boss';
import { preparedJobEngineDatabase, webhookQueue } from './postgres-job-engine.js';
import type { Queryable, SqlSession } from './sql-session.js';
import type { BatchedWrite, WriteTemplate } from './write-batch.js';

const unavailable = storageUnavailable('postgres');

/** The job engine a transaction's webhook jobs are sent to, and how long a job may stay active. */
export type TransactionJobs = { readonly boss: PgBoss; readonly jobExpirySeconds: number };

/**
 * A command's events to deliver, for the unit of work to decide with its batched writes: one job
 * with the events of the managers that have a webhook endpoint, sent in the same transaction, and
 * none when no manager has one.
 */
export type WebhookJobDecision = {
  readonly events: readonly { readonly managerId: string; readonly eventId: string }[];
};

/** The managers whose events a decision holds, each once. */
export const decisionManagers = (decision: WebhookJobDecision): string[] => [
  ...new Set(decision.events.map(({ managerId }) => managerId)),
];

/** The job of `decision` for the managers that have an endpoint. */
export const deliveryJob = (decision: WebhookJobDecision, withEndpoint: ReadonlySet<string>): WebhookJob => ({
  type: 'deliver-events',
  eventIds: decision.events
    .filter(({ managerId }) => withEndpoint.has(managerId))
    .map(({ eventId }) => eventId),
});

/** Where a transaction's job queue leaves its decisions (the unit of work). */
export type WebhookJobDecisions = { add(decision: WebhookJobDecision): void };

/** How the kit sends every webhook job to pg-boss: its queue, its expiry, through `db`. */
const sendThrough = (
  db: PgBoss.Db,
  { boss, jobExpirySeconds }: TransactionJobs,
  job: WebhookJob,
  startAfter?: Date,
): Promise<unknown> =>
  boss.send(webhookQueue, job, {
    db,
    expireInSeconds: jobExpirySeconds,
    ...(startAfter === undefined ? {} : { startAfter }),
  });

/** Sends `job` at once, through `db` (the transaction's connection). */
export const sendWebhookJob = (
  db: Queryable,
  jobs: TransactionJobs,
  job: WebhookJob,
  startAfter?: Date,
): Promise<unknown> => sendThrough(preparedJobEngineDatabase(db), jobs, job, startAfter);

// pg-boss's job insert is one fixed text per job schema: its template is kept, a few at most.
const MAX_JOB_INSERT_TEMPLATES = 16;
const jobInsertTemplates = new Map<string, WriteTemplate>();

/**
 * pg-boss's insert of `job` as a batched write, so that it goes in the same statement as the
 * command's writes: what `boss.send` would run, taken from it without running it. `undefined` when
 * pg-boss did not send exactly one plain INSERT (another version of it): send it at once then.
 */
export const webhookJobWrite = async (
  jobs: TransactionJobs,
  job: WebhookJob,
): Promise<BatchedWrite | undefined> => {
  const taken: { text: string; values: unknown[] }[] = [];
  await sendThrough(
    {
      executeSql: async (text, values = []) => {
        taken.push({ text, values });
        return { rows: [{ id: null }] };
      },
    },
    jobs,
    job,
  );
  const [insert] = taken;
  if (taken.length !== 1 || insert === undefined) return undefined;
  let template = jobInsertTemplates.get(insert.text);
  if (template === undefined) {
    if (!/^\s*INSERT\s/i.test(insert.text) || insert.text.includes(';')) return undefined;
    template = { statements: [insert.text] };
    if (jobInsertTemplates.size < MAX_JOB_INSERT_TEMPLATES) jobInsertTemplates.set(insert.text, template);
  }
  return { template, values: insert.values };
};

/**
 * Webhook jobs on pg-boss, sent through the command's own transaction so that they commit (or roll
 * back) with it. A command's events become one job, and only when their manager has an endpoint:
 * the unit of work decides that with the transaction's batched writes (`decisions`).
 */
export const createPostgresWebhookJobQueue = (
  db: SqlSession,
  jobs: TransactionJobs,
  decisions: WebhookJobDecisions,
): WebhookJobQueue => ({
  enqueueEventDeliveries: (events) => {
    if (events.length === 0) return okAsync(undefined);
    decisions.add({ events: events.map(({ managerId, event }) => ({ managerId, eventId: event.id })) });
    return okAsync(undefined);
  },
  enqueueAttempt: (deliveryId, runAt) =>
    ResultAsync.fromPromise(
      sendWebhookJob(db, jobs, { type: 'attempt-delivery', deliveryId }, runAt),
      unavailable,
    ).map(() => undefined),
  enqueueAttempts: (deliveries, runAt) =>
    ResultAsync.fromPromise(
      sendWebhookJob(db, jobs, { type: 'attempt-deliveries', deliveries: [...deliveries] }, runAt),
      unavailable,
    ).map(() => undefined),
});
