import type { Clock, OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningJobQueue, StorageUnavailable } from '@onboarding-kit/core/adapter';
import { ok, type ResultAsync } from 'neverthrow';
import type { TableAccess } from './memory-database.js';
import { entries, type OrderKey, type QueuedScreeningJob, type Tree } from './memory-tables.js';
import type { JobSequence } from './memory-webhook-job-queue.js';

/** A failed screening is retried after 1 s, 2 s, 4 s … at most an hour apart (as pg-boss's back-off). */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60 * 60_000;
export const screeningRetryDelayMs = (attempts: number): number =>
  Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

/** Adds one screening job, due at `runAt`. */
const enqueue = (access: TableAccess, sequence: JobSequence, queued: QueuedScreeningJob, runAt: Date) =>
  access.write((tables) => {
    tables.screeningJobs = tables.screeningJobs.insert([runAt.getTime(), sequence.next()], queued);
    return ok(undefined);
  });

/** The screening job queue in memory: rows of the memory tables, committed with the command. */
export const createMemoryScreeningJobQueue = (
  access: TableAccess,
  clock: Clock,
  sequence: JobSequence,
): ScreeningJobQueue => ({
  enqueueScreening: (clientId) =>
    enqueue(access, sequence, { job: { type: 'screen-client', clientId }, attempts: 0 }, clock.now()),
});

/** Takes the screening jobs due at `now` off the queue, oldest due first. */
const takeDue = (access: TableAccess, now: Date): ResultAsync<QueuedScreeningJob[], StorageUnavailable> =>
  access.write((tables) => {
    const due: (readonly [OrderKey, QueuedScreeningJob])[] = [];
    for (const entry of entries(tables.screeningJobs)) {
      if ((entry[0][0] as number) > now.getTime()) break;
      due.push(entry);
    }
    for (const [key] of due) tables.screeningJobs = tables.screeningJobs.remove(key);
    return ok(due.map(([, queued]) => queued));
  });

/** What one round of screening did. */
export type ScreeningRound = { readonly jobs: number; readonly failed: number };

/**
 * Runs every screening job due at the clock's now through `kit`, one after the other; a job that
 * fails goes back on the queue after its back-off (`screeningRetryDelayMs`).
 */
export const runDueScreeningJobs = async (
  kit: Pick<OnboardingKit, 'screening'>,
  access: TableAccess,
  clock: Clock,
  sequence: JobSequence,
): Promise<ScreeningRound> => {
  const due = await takeDue(access, clock.now());
  if (due.isErr()) return { jobs: 0, failed: 0 };
  let failed = 0;
  for (const queued of due.value) {
    const outcome = await kit.screening.runJob(queued.job);
    if (outcome.isErr()) {
      failed += 1;
      const attempts = queued.attempts + 1;
      await enqueue(
        access,
        sequence,
        { job: queued.job, attempts },
        new Date(clock.now().getTime() + screeningRetryDelayMs(attempts)),
      );
    }
  }
  return { jobs: due.value.length, failed };
};

/** The queued screening jobs, soonest first, with when each is due. */
export const listScreeningJobs = (queue: Tree<OrderKey, QueuedScreeningJob>) =>
  [...entries(queue)].map(([key, queued]) => ({
    clientId: queued.job.clientId,
    attempts: queued.attempts,
    runAt: new Date(key[0] as number),
  }));
