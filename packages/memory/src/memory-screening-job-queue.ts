import type { Clock, OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningJob, ScreeningJobQueue, StorageUnavailable } from '@onboarding-kit/core/adapter';
import { ok, type ResultAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import {
  entries,
  type OrderKey,
  type QueuedScreeningJob,
  type ReadableTables,
  type Tree,
} from './memory-tables.js';
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
  enqueueNameIndexing: (job) =>
    enqueue(access, sequence, { job: frozenClone(job), attempts: 0 }, clock.now()),
  enqueueListChange: (version, jobs) =>
    access.write((tables) => {
      if (tables.screeningListVersions.get(version) !== undefined) return ok(false);
      tables.screeningListVersions.set(version, { batches: jobs.length });
      const runAt = clock.now().getTime();
      for (const job of jobs) {
        tables.screeningJobs = tables.screeningJobs.insert([runAt, sequence.next()], {
          job: frozenClone(job),
          attempts: 0,
        });
      }
      return ok(true);
    }),
});

/** Whose turn a job takes: the client's manager; monitoring jobs share one turn of their own. */
const turnOf = (tables: ReadableTables, job: ScreeningJob): string =>
  job.type === 'screen-client'
    ? `manager:${tables.clients.get(job.clientId)?.managerId ?? ''}`
    : 'list-monitoring';

/**
 * Takes the next screening job due at `now` off the queue, fairly: the oldest due job of the turn
 * (a manager) served longest ago in `served`, so that one manager's backlog takes one job in
 * turn with every other manager's, not all of its jobs first.
 */
const takeNext = (
  access: TableAccess,
  now: Date,
  served: Map<string, number>,
  sequence: { value: number },
): ResultAsync<QueuedScreeningJob | null, StorageUnavailable> =>
  access.write((tables) => {
    let chosen: { key: OrderKey; queued: QueuedScreeningJob; turn: string; last: number } | null = null;
    for (const [key, queued] of entries(tables.screeningJobs)) {
      if ((key[0] as number) > now.getTime()) break;
      const turn = turnOf(tables, queued.job);
      const last = served.get(turn) ?? -1;
      if (chosen === null || last < chosen.last) chosen = { key, queued, turn, last };
      // Nobody comes before a turn never served: its oldest job is the one.
      if (last === -1) break;
    }
    if (chosen === null) return ok(null);
    tables.screeningJobs = tables.screeningJobs.remove(chosen.key);
    sequence.value += 1;
    served.set(chosen.turn, sequence.value);
    return ok(chosen.queued);
  });

/** What one round of screening did. */
export type ScreeningRound = { readonly jobs: number; readonly failed: number };

export type ScreeningRoundOptions = {
  /** Jobs run at once (default 1); a provider that waits on a remote service gains from more. */
  readonly concurrency?: number;
};

/**
 * Runs the screening jobs due at the clock's now through `kit`, fairly between managers (see
 * `takeNext`), `concurrency` at a time; a job that fails goes back on the queue after its
 * back-off (`screeningRetryDelayMs`). A job enqueued during the round takes its turn in it; the
 * round ends after as many jobs as were due when it began (so a steady stream cannot hold it).
 */
export const runDueScreeningJobs = async (
  kit: Pick<OnboardingKit, 'screening'>,
  access: TableAccess,
  clock: Clock,
  sequence: JobSequence,
  { concurrency = 1 }: ScreeningRoundOptions = {},
): Promise<ScreeningRound> => {
  const due = await access.read(
    (tables) =>
      [...entries(tables.screeningJobs)].filter(([key]) => (key[0] as number) <= clock.now().getTime())
        .length,
  );
  let budget = due.isOk() ? due.value : 0;
  const served = new Map<string, number>();
  const turns = { value: 0 };
  let jobs = 0;
  let failed = 0;
  const work = async () => {
    while (budget > 0) {
      budget -= 1;
      const next = await takeNext(access, clock.now(), served, turns);
      if (next.isErr() || next.value === null) return;
      const queued = next.value;
      jobs += 1;
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
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency)) }, work));
  return { jobs, failed };
};

/** The queued screening jobs, soonest first, with when each is due (`clientId` of a client's screening). */
export const listScreeningJobs = (queue: Tree<OrderKey, QueuedScreeningJob>) =>
  [...entries(queue)].map(([key, queued]) => ({
    job: queued.job,
    ...(queued.job.type === 'screen-client' ? { clientId: queued.job.clientId } : {}),
    attempts: queued.attempts,
    runAt: new Date(key[0] as number),
  }));
