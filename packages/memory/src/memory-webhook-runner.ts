import { setMaxListeners } from 'node:events';
import type { OnboardingKit, WebhookJobReport } from '@onboarding-kit/core';
import type { StorageUnavailable, WebhookJob } from '@onboarding-kit/core/adapter';
import type { ResultAsync } from 'neverthrow';

/** What one round of delivery did: the jobs run and the attempts they made. */
export type WebhookDeliveryRound = WebhookJobReport & { readonly jobs: number };

type DueJobs = () => ResultAsync<WebhookJob[], StorageUnavailable>;

/** Jobs that failed on storage are put back this much later. */
const RETRY_FAILED_JOB_MS = 1_000;
/** A round stops after this many passes even if jobs keep coming due (a redelivery loop). */
const MAX_PASSES = 100;

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

/**
 * Runs every job due now, and those they make due now (what the PostgreSQL job engine does with
 * workers), `concurrency` at once. A job that fails is put back a second later.
 */
export const runDueWebhookJobs = async (
  kit: Pick<OnboardingKit, 'webhooks'>,
  takeDue: DueJobs,
  putBack: (job: WebhookJob, delayMs: number) => Promise<void>,
  { concurrency = 1, signal }: WebhookRoundOptions = {},
): Promise<WebhookDeliveryRound> => {
  const total = { jobs: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
  const run = async (job: WebhookJob) => {
    total.jobs += 1;
    const report = await kit.webhooks.runJob(job, signal === undefined ? {} : { signal });
    if (report.isErr()) {
      await putBack(job, RETRY_FAILED_JOB_MS);
      return;
    }
    total.attempted += report.value.attempted;
    total.succeeded += report.value.succeeded;
    total.retrying += report.value.retrying;
    total.failed += report.value.failed;
  };
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

/**
 * A running memory delivery loop; `close` stops it, tells the rounds in progress (their signal:
 * what waits is handed back) and waits for them.
 */
export type MemoryWebhookRunner = { close(): Promise<void> };

/**
 * Runs due webhook jobs every `intervalMs` on real timers (the demo in memory mode). A round still
 * running when the next tick comes does not hold the jobs due since: up to `maxRounds` run at once
 * (each takes the jobs due when it starts), so an event is never queued behind a round waiting on
 * a slow receiver.
 */
export const startMemoryWebhookRunner = (
  deliverDue: (signal: AbortSignal) => Promise<WebhookDeliveryRound>,
  { intervalMs = 200, maxRounds = 8 }: { readonly intervalMs?: number; readonly maxRounds?: number } = {},
): MemoryWebhookRunner => {
  const running = new Set<Promise<unknown>>();
  const stopped = new AbortController();
  // Each delivery waiting for a slot listens on the signal until it starts or gives up (and then
  // stops listening): as many as the rounds' waiting deliveries, not a leak; Node warns past 10.
  setMaxListeners(0, stopped.signal);
  const timer = setInterval(() => {
    if (running.size >= maxRounds) return;
    const round: Promise<unknown> = deliverDue(stopped.signal)
      .catch(() => undefined)
      .finally(() => running.delete(round));
    running.add(round);
  }, intervalMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      stopped.abort();
      await Promise.all([...running]);
    },
  };
};
