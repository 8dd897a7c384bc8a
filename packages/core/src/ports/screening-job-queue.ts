import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';

/** The work of screening: one job screens one client's names as they are when it runs. */
export type ScreeningJob = { readonly type: 'screen-client'; readonly clientId: string };

/**
 * The screening job queue, bound to the command's transaction (the job commits with the create or
 * resubmit that made it). A job that fails is retried by the engine with back-off.
 */
export interface ScreeningJobQueue {
  enqueueScreening(clientId: string): ResultAsync<void, StorageUnavailable>;
}
