import type { Clock, OnboardingKit } from '@onboarding-kit/core';
import type { WebhookJob, WebhookJobQueue } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { enqueueJob, type TableAccess } from './memory-database.js';

const enqueueWebhookJob = (access: TableAccess, job: WebhookJob, runAt: Date) =>
  access.write((tables) => ok(enqueueJob(tables, tables.webhookJobs, job, runAt.getTime())));

/**
 * The webhook job queue in memory: jobs are rows of the memory tables, so they commit with the
 * command that enqueued them; they are due at their `runAt` on the kit's clock.
 *
 * Managers take turns, as on PostgreSQL (postgres-webhook-job-queue.ts): a round runs the due jobs
 * by turn. A manager's events job takes the later of now and a second past its manager's last turn,
 * so one manager's burst spreads a second apart while another manager's job takes now, ahead of all
 * of the burst but what came before it; an attempt's job takes the instant it is due.
 */
export const createMemoryWebhookJobQueue = (access: TableAccess, clock: Clock): WebhookJobQueue => ({
  enqueueEventDeliveries: (events) =>
    access.write((tables) => {
      const subscribed = new Set([...tables.webhookEndpoints.values()].map(({ managerId }) => managerId));
      const delivered = events.filter(({ managerId }) => subscribed.has(managerId));
      const [first] = delivered;
      if (first === undefined) return ok(undefined);
      const now = clock.now().getTime();
      const turn = Math.max(now, (tables.webhookTurns.get(first.managerId) ?? now - 1_000) + 1_000);
      tables.webhookTurns.set(first.managerId, turn);
      const job: WebhookJob = { type: 'deliver-events', eventIds: delivered.map(({ event }) => event.id) };
      return ok(enqueueJob(tables, tables.webhookJobs, job, now, 0, turn));
    }),
  enqueueAttempt: (deliveryId, runAt) =>
    enqueueWebhookJob(access, { type: 'attempt-delivery', deliveryId }, runAt),
  enqueueAttempts: (deliveries, runAt) =>
    enqueueWebhookJob(access, { type: 'attempt-deliveries', deliveries }, runAt),
});

/** How a round runs its jobs. */
export type WebhookRoundOptions = {
  /**
   * Jobs run at once (default 1: one after the other, as host unit tests expect). The demo's
   * runner runs many: a job waiting on a receiver's answer then holds no other job back.
   */
  readonly concurrency?: number;
  /** Once aborted (the runner stops), jobs hand back what they have not started, and no pass follows. */
  readonly signal?: AbortSignal;
};

/** Jobs that failed on storage are put back this much later. */
const RETRY_FAILED_JOB_MS = 1_000;
/** A round stops after this many passes even if jobs keep coming due (a redelivery loop). */
const MAX_PASSES = 100;

/**
 * Runs every job due at the clock's now through `kit`, and those they make due now (what the
 * PostgreSQL job engine does with workers), `concurrency` at once. Each pass takes the due jobs
 * off the queue in turn (ties in the order enqueued); a job that fails is put back a second later.
 */
export const runDueWebhookJobs = async (
  kit: Pick<OnboardingKit, 'webhooks'>,
  access: TableAccess,
  clock: Clock,
  { concurrency = 1, signal }: WebhookRoundOptions = {},
) => {
  const total = { jobs: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
  const run = async (job: WebhookJob) => {
    total.jobs += 1;
    const report = await kit.webhooks.runJob(job, signal === undefined ? {} : { signal });
    if (report.isErr()) {
      await enqueueWebhookJob(access, job, new Date(clock.now().getTime() + RETRY_FAILED_JOB_MS));
      return;
    }
    for (const count of ['attempted', 'succeeded', 'retrying', 'failed'] as const)
      total[count] += report.value[count];
  };
  const takeDue = () =>
    access.write((tables) => {
      const due = [...tables.webhookJobs.values()]
        .filter(({ runAt }) => runAt <= clock.now().getTime())
        .sort((a, b) => a.turn - b.turn);
      for (const { number } of due) tables.webhookJobs.delete(String(number));
      return ok(due.map(({ job }) => job));
    });
  for (let pass = 0; pass < MAX_PASSES && signal?.aborted !== true; pass += 1) {
    const due = await takeDue();
    if (due.isErr() || due.value.length === 0) break;
    const queue = [...due.value];
    const worker = async () => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(job);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
  }
  return total;
};
