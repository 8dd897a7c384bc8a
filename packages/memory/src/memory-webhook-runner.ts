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

/**
 * Runs every job due now, and those they make due now, one at a time (what the PostgreSQL job
 * engine does with workers). A job that fails is put back a second later.
 */
export const runDueWebhookJobs = async (
  kit: Pick<OnboardingKit, 'webhooks'>,
  takeDue: DueJobs,
  putBack: (job: WebhookJob, delayMs: number) => Promise<void>,
): Promise<WebhookDeliveryRound> => {
  const total = { jobs: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const due = await takeDue();
    if (due.isErr() || due.value.length === 0) break;
    for (const job of due.value) {
      total.jobs += 1;
      const report = await kit.webhooks.runJob(job);
      if (report.isErr()) {
        await putBack(job, RETRY_FAILED_JOB_MS);
        continue;
      }
      total.attempted += report.value.attempted;
      total.succeeded += report.value.succeeded;
      total.retrying += report.value.retrying;
      total.failed += report.value.failed;
    }
  }
  return total;
};

/** A running memory delivery loop; `close` stops it and waits for a round in progress. */
export type MemoryWebhookRunner = { close(): Promise<void> };

/** Runs due webhook jobs every `intervalMs` on real timers (the demo in memory mode). */
export const startMemoryWebhookRunner = (
  deliverDue: () => Promise<WebhookDeliveryRound>,
  { intervalMs = 200 }: { readonly intervalMs?: number } = {},
): MemoryWebhookRunner => {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A round still running when the next tick comes is not doubled: the tick is skipped.
    if (running !== null) return;
    running = deliverDue()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
