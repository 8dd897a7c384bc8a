import type { Clock, OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningJob, ScreeningJobQueue } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { dueOrder, enqueueJob, type TableAccess, type Tables } from './memory-database.js';

/** A failed screening is retried after 1 s, 2 s, 4 s … at most an hour apart (as pg-boss's back-off). */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60 * 60_000;
export const screeningRetryDelayMs = (attempts: number): number =>
  Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

const enqueue = (tables: Tables, job: ScreeningJob, runAt: number, attempts = 0) =>
  enqueueJob(tables, tables.screeningJobs, job, runAt, attempts);

/** The screening job queue in memory: rows of the memory tables, committed with the command. */
export const createMemoryScreeningJobQueue = (access: TableAccess, clock: Clock): ScreeningJobQueue => ({
  enqueueScreening: (clientId) =>
    access.write((tables) => ok(enqueue(tables, { type: 'screen-client', clientId }, clock.now().getTime()))),
  enqueueNameIndexing: (job) => access.write((tables) => ok(enqueue(tables, job, clock.now().getTime()))),
  enqueueListChange: (version, jobs) =>
    access.write((tables) => {
      if (tables.screeningListVersions.get(version) !== undefined) return ok(false);
      tables.screeningListVersions.set(version, jobs.length);
      for (const job of jobs) enqueue(tables, job, clock.now().getTime());
      return ok(true);
    }),
});

export const queuedScreeningJobs = (tables: Tables) => [...tables.screeningJobs.values()].sort(dueOrder);

export type ScreeningRoundOptions = {
  /** Jobs run at once (default 1); a provider that waits on a remote service gains from more. */
  readonly concurrency?: number;
};

/**
 * Runs the screening jobs due at the clock's now through `kit`, `concurrency` at a time, fairly:
 * each job taken is the oldest due one of the turn (the client's manager; monitoring jobs share
 * one turn) served longest ago, so one manager's backlog takes one job in turn with every other
 * manager's, not all of its jobs first. A job that fails goes back on the queue after its back-off
 * (`screeningRetryDelayMs`). A job enqueued during the round takes its turn in it; the round ends
 * after as many jobs as were due when it began (so a steady stream cannot hold it).
 */
export const runDueScreeningJobs = async (
  kit: Pick<OnboardingKit, 'screening'>,
  access: TableAccess,
  clock: Clock,
  { concurrency = 1 }: ScreeningRoundOptions = {},
) => {
  const isDue = ({ runAt }: { runAt: number }) => runAt <= clock.now().getTime();
  const due = await access.read((tables) => queuedScreeningJobs(tables).filter(isDue).length);
  let budget = due.isOk() ? due.value : 0;
  /** Turn → when it was last served (the number of jobs taken then). */
  const served = new Map<string, number>();
  let jobs = 0;
  let failed = 0;
  const turnOf = (tables: Tables, job: ScreeningJob) =>
    job.type === 'screen-client'
      ? `manager:${tables.clients.get(job.clientId)?.managerId ?? ''}`
      : 'list-monitoring';
  const takeNext = () =>
    access.write((tables) => {
      const [next] = queuedScreeningJobs(tables)
        .filter(isDue)
        .map((queued) => ({ queued, turn: turnOf(tables, queued.job) }))
        // Stable: among turns served as long ago, the oldest job first.
        .sort((a, b) => (served.get(a.turn) ?? -1) - (served.get(b.turn) ?? -1));
      if (next === undefined) return ok(null);
      tables.screeningJobs.delete(String(next.queued.number));
      served.set(next.turn, jobs);
      jobs += 1;
      return ok(next.queued);
    });
  const work = async () => {
    while (budget > 0) {
      budget -= 1;
      const next = await takeNext();
      if (next.isErr() || next.value === null) return;
      const { job, attempts } = next.value;
      const outcome = await kit.screening.runJob(job);
      if (outcome.isErr()) {
        failed += 1;
        const retryAt = clock.now().getTime() + screeningRetryDelayMs(attempts + 1);
        await access.write((tables) => ok(enqueue(tables, job, retryAt, attempts + 1)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency)) }, work));
  return { jobs, failed };
};
