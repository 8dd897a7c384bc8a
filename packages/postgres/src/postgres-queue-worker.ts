import { setMaxListeners } from 'node:events';
import type { ResultAsync } from 'neverthrow';
import type PgBoss from 'pg-boss';

/** A kit error as the job's failure output (pg-boss keeps it on the job); never its cause's internals. */
const failureOf = (error: { readonly type: string }): Error => new Error(`The job failed: ${error.type}`);

/** How long a job that ended waits for others to be completed with it. */
const COMPLETE_AFTER_MS = 50;
/** A fetch that found less than it asked for is followed by another no sooner than this after it. */
const REFETCH_AFTER_MS = 50;

export type QueueWorkerOptions = {
  /** Jobs taken per fetch. */
  readonly batchSize: number;
  /** Jobs in hand at once, over all fetch loops. */
  readonly maxJobsInHand: number;
  /** Parallel fetch loops on the queue, sharing `maxJobsInHand`. */
  readonly workers: number;
  readonly pollingIntervalMs: number;
  readonly onError: (error: unknown) => void;
  /** Runs before each fetch (the screening queue's fair ranking); a failure goes to `onError`. */
  readonly beforeFetch?: () => Promise<unknown>;
};

/** A queue being worked; `stop` ends only once nothing of it is left on its way to the database. */
export type QueueWorker = { stop(): Promise<void> };

/**
 * Works one queue with pg-boss's `fetch`, `complete` and `fail` rather than `work`. `work` hands a
 * batch to one handler and fetches again only once every job of it has ended, so one job waiting
 * on a receiver that never answers held its whole batch for the attempt timeout; and its `stop`
 * neither waits for a fetch on its way nor for the `complete` or `fail` of a job that ended, which
 * then reached a pool already ended (an unhandled rejection). Here each job ends on its own and its
 * place is filled by the next fetch; a full fetch is followed by another at once, an empty or
 * partial one by the next job's end (50 ms after it at the soonest) or the polling interval; `stop` aborts the jobs' signal (a webhook job then hands back
 * what it has not started), lets the fetch on its way and the jobs in hand end and awaits their
 * `complete` or `fail`. Every promise is awaited and every failure goes to
 * `onError`. Jobs of a process that dies are expired by the engine's supervision.
 */
export const workQueue = <T extends object>(
  boss: PgBoss,
  queue: string,
  /** Runs a job; `signal` is aborted once the worker stops (a job may then hand back what waits). */
  runJob: (data: T, signal: AbortSignal) => ResultAsync<unknown, { readonly type: string }>,
  { batchSize, maxJobsInHand, workers, pollingIntervalMs, onError, beforeFetch }: QueueWorkerOptions,
): QueueWorker => {
  let inHand = 0;
  let stopping = false;
  const stopped = new AbortController();
  // Each delivery of the jobs in hand that waits for a webhook slot listens on the signal until it
  // starts or gives up, then stops listening: many at once, not a leak; Node warns past 10.
  setMaxListeners(0, stopped.signal);
  const running = new Set<Promise<void>>();
  /**
   * A fetch reads the queued jobs' index and sorts it; the loops used to fetch again at every job's
   * end (one job per fetch with a backlog, one fetch per job besides), a statement and a read of
   * the backlog per job. Now a loop with no room waits for a batch's worth of it (or for all of
   * `maxJobsInHand` when that is less), and one whose last fetch found less than it asked for waits
   * for a job's end but at least `REFETCH_AFTER_MS` (at most the polling interval): new jobs
   * are still taken within that while jobs are running, by at most one fetch in it.
   */
  const refillAt = Math.min(batchSize, maxJobsInHand);
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...sleepers]) wake();
  };
  const roomWaiters = new Set<() => void>();
  const endWaiters = new Map<() => void, number>();
  const onJobEnded = () => {
    if (maxJobsInHand - inHand >= refillAt) for (const wake of [...roomWaiters]) wake();
    const at = performance.now();
    for (const [wake, since] of [...endWaiters]) {
      endWaiters.delete(wake);
      setTimeout(wake, Math.max(0, since + REFETCH_AFTER_MS - at));
    }
  };
  /** Waits `ms`, or less when the worker stops, or (`wakeOn`) once room came free or a job ended. */
  const pause = (ms: number, wakeOn?: 'room' | 'end') =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        roomWaiters.delete(wake);
        endWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
      if (wakeOn === 'room') roomWaiters.add(wake);
      if (wakeOn === 'end') endWaiters.set(wake, performance.now());
    });

  // Jobs that ran are completed together: one statement for those that ended within a short
  // while (or a batch of them), as `work` completed a batch; one per job cost a statement for every
  // job. A crash before it runs them again (at least once; an attempt recorded is not sent again).
  let ended: string[] = [];
  let completing: Promise<void> = Promise.resolve();
  let completeTimer: ReturnType<typeof setTimeout> | undefined;
  const completeEnded = () => {
    clearTimeout(completeTimer);
    completeTimer = undefined;
    if (ended.length === 0) return;
    const ids = ended;
    ended = [];
    completing = completing
      .then(() => boss.complete(queue, ids))
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      );
  };
  const complete = (id: string) => {
    ended.push(id);
    if (ended.length >= batchSize) completeEnded();
    else if (completeTimer === undefined) completeTimer = setTimeout(completeEnded, COMPLETE_AFTER_MS);
  };

  const run = async (job: PgBoss.Job<T>) => {
    try {
      const outcome = await runJob(job.data, stopped.signal);
      // A failed job is retried by the engine.
      if (outcome.isErr()) await boss.fail(queue, job.id, { message: failureOf(outcome.error).message });
      else complete(job.id);
    } catch (error) {
      onError(error);
    } finally {
      inHand -= 1;
      onJobEnded();
    }
  };

  const fetchLoop = async () => {
    let waitedForRoom = false;
    while (!stopping) {
      const room = Math.min(batchSize, maxJobsInHand - inHand);
      // Less room than a batch: wait for a batch's worth once, then take what room there is.
      if (room <= 0 || (room < refillAt && !waitedForRoom)) {
        await pause(pollingIntervalMs, 'room');
        waitedForRoom = true;
        continue;
      }
      waitedForRoom = false;
      inHand += room;
      let jobs: PgBoss.Job<T>[] = [];
      try {
        await beforeFetch?.();
        jobs = await boss.fetch<T>(queue, { batchSize: room });
      } catch (error) {
        onError(error);
      }
      inHand -= room - jobs.length;
      // Jobs fetched while stopping are run too: they are taken, and ending them is cheaper than
      // leaving them active until their expiry.
      for (const job of jobs) {
        const started = run(job).finally(() => running.delete(started));
        running.add(started);
      }
      // A full fetch means a backlog: fetch again at once. Otherwise wait the polling interval.
      if (jobs.length < room && !stopping) await pause(pollingIntervalMs, 'end');
    }
  };
  const loops = Array.from({ length: Math.max(1, workers) }, fetchLoop);

  return {
    stop: async () => {
      stopping = true;
      stopped.abort();
      wakeAll();
      await Promise.all(loops);
      await Promise.all([...running]);
      completeEnded();
      await completing;
    },
  };
};
