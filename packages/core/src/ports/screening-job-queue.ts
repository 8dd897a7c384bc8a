import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';

/** A list target added or renamed in a new list version (`kit.screening.listChanged`). */
export type ChangedListTarget = {
  /** The target's id on its list, stable across versions (`ScreeningMatch.targetId`). */
  readonly id: string;
  /** Its name and aliases in the new version. */
  readonly names: readonly string[];
};

/**
 * The work of screening: `screen-client` screens one client's names as they are when it runs;
 * `monitor-list-change` matches one bounded batch of a new list version's changed targets against
 * the index of screened names (one job per batch, so that a crash reruns one batch);
 * `index-screened-names` writes the index entries of up to `batchSize` screened clients after the
 * client `after`, and enqueues the next batch with them.
 */
export type ScreeningJob =
  | { readonly type: 'screen-client'; readonly clientId: string }
  | {
      readonly type: 'monitor-list-change';
      readonly version: string;
      readonly batch: number;
      readonly targets: readonly ChangedListTarget[];
    }
  | { readonly type: 'index-screened-names'; readonly after: string | null; readonly batchSize: number };

/** One batch of a rebuild of the index of screened names. */
export type NameIndexingJob = Extract<ScreeningJob, { type: 'index-screened-names' }>;

/** The jobs of one list change, one per batch of its changed targets. */
export type ListChangeJob = Extract<ScreeningJob, { type: 'monitor-list-change' }>;

/**
 * The screening job queue, bound to the command's transaction (the job commits with the create or
 * resubmit that made it). A job that fails is retried by the engine with back-off.
 */
export interface ScreeningJobQueue {
  enqueueScreening(clientId: string): ResultAsync<void, StorageUnavailable>;
  /**
   * Enqueues the monitoring jobs of a list version unless its version was enqueued before, by any
   * process (the store keeps every version it was given): true when they were enqueued now.
   */
  enqueueListChange(
    version: string,
    jobs: readonly ListChangeJob[],
  ): ResultAsync<boolean, StorageUnavailable>;
  /** Enqueues one batch of a rebuild of the index of screened names. */
  enqueueNameIndexing(job: NameIndexingJob): ResultAsync<void, StorageUnavailable>;
}
