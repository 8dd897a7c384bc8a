import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { StoredClient } from '../domain/client.js';
import { screeningSubjectsOf } from '../domain/screening.js';
import { type DomainError, lockLostAsInProgress } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { NameIndexingJob } from '../ports/screening-job-queue.js';
import type { TransactionalStores } from '../ports/unit-of-work.js';
import { parseRequest } from '../validation/parse-request.js';
import { indexKeysOf } from './screening-monitoring.js';

/** Clients indexed by one job of a rebuild (each locked for the job's transaction). */
export const DEFAULT_NAME_INDEXING_BATCH = 200;
const MAX_NAME_INDEXING_BATCH = 1_000;

const reindexOptionsSchema = z
  .strictObject({
    batchSize: z.number().int().min(1).max(MAX_NAME_INDEXING_BATCH).optional(),
  })
  .optional();

/** What `reindexScreenedNames` enqueued: the first batch of the rebuild. */
export type NameIndexingReceipt = { readonly batchSize: number };

const isDone = (client: StoredClient | null): client is StoredClient =>
  client?.screening?.status === 'CLEAR' || client?.screening?.status === 'POSSIBLE_MATCH';

/**
 * A rebuild of the index of screened names (monitoring, decisions §12): for the clients screened
 * before the index existed, and after the provider's keys changed (`ScreeningProvider.nameKeys`).
 * It walks the screened clients by id, one job per batch; a job writes its batch's entries and
 * enqueues the next batch in one transaction, so that a crash reruns one batch and a batch runs
 * again harmlessly (an entry is replaced whole). Each client is locked and read again before its
 * entry is written, so that a redaction or a resubmission meanwhile is not undone.
 */
export const createScreenedNameReindexing = (ctx: KitContext) => {
  const { ports } = ctx;
  const keysOf = indexKeysOf(ports.screening);

  const reindexScreenedNames = (options?: unknown): ResultAsync<NameIndexingReceipt, DomainError> => {
    const parsed = parseRequest(reindexOptionsSchema, options);
    if (parsed.isErr()) return errAsync(parsed.error);
    const batchSize = parsed.value?.batchSize ?? DEFAULT_NAME_INDEXING_BATCH;
    return ports.unitOfWork
      .transaction((tx) =>
        tx.screeningJobs.enqueueNameIndexing({ type: 'index-screened-names', after: null, batchSize }),
      )
      .mapErr(lockLostAsInProgress)
      .map(() => ({ batchSize }));
  };

  /** Writes one client's entry if its screening is still done when locked; whether it did. */
  const indexOne = (tx: TransactionalStores, clientId: string) =>
    tx.clients.findForUpdate(clientId).andThen((client) =>
      isDone(client)
        ? tx.screenedNames
            .replace(
              clientId,
              screeningSubjectsOf(client).map((subject) => ({ ...subject, keys: [...keysOf(subject.name)] })),
            )
            .map(() => true)
        : okAsync(false),
    );

  /** Runs one batch of a rebuild; resolves to how many clients it indexed. */
  const runNameIndexing = (job: NameIndexingJob): ResultAsync<number, DomainError> =>
    ports.clients.listScreened(job.after, job.batchSize).andThen((page) => {
      const last = page.at(-1);
      if (last === undefined) return okAsync(0);
      return ports.unitOfWork
        .transaction((tx) => {
          let indexed: ResultAsync<number, DomainError> = okAsync(0);
          for (const client of page) {
            indexed = indexed.andThen((count) =>
              indexOne(tx, client.id).map((done) => count + (done ? 1 : 0)),
            );
          }
          return indexed.andThen((count) =>
            page.length < job.batchSize
              ? okAsync(count)
              : tx.screeningJobs.enqueueNameIndexing({ ...job, after: last.id }).map(() => count),
          );
        })
        .mapErr(lockLostAsInProgress);
    });

  return { reindexScreenedNames, runNameIndexing };
};
