import { clearTimeout, setTimeout } from 'node:timers';
import type { Clock } from '@onboarding-kit/core';
import {
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import { createMemoryAuditLog } from './memory-audit-log.js';
import { createMemoryClientRepository } from './memory-client-repository.js';
import type { MemoryDatabase } from './memory-database.js';
import { createMemoryDocumentIndex } from './memory-document-index.js';
import { createMemoryEventLog } from './memory-event-log.js';
import { completeIdempotencyClaim, rewriteClientIdempotencyRecords } from './memory-idempotency-store.js';
import { createMemoryScreenedNameIndex } from './memory-screened-name-index.js';
import { createMemoryScreeningJobQueue } from './memory-screening-job-queue.js';
import { createMemoryWebhookDeliveryStore } from './memory-webhook-delivery-store.js';
import { createMemoryWebhookEndpointStore } from './memory-webhook-endpoint-store.js';
import { createMemoryWebhookJobQueue, type JobSequence } from './memory-webhook-job-queue.js';

/**
 * Transactions one at a time (a promise-chain lock), each on its own view of the tables
 * (memory-database.ts): its writes are visible to its own reads, committed when it resolves Ok and
 * dropped when it resolves Err, rejects or throws, or when one of its writes failed.
 *
 * Every transaction has a deadline (`timeoutMs`): work still running then is abandoned, its
 * writes are dropped, its later writes refused, and the lock passes on; the transaction resolves to
 * `StorageUnavailable`. Without it, work that waits for something needing the lock it holds (a
 * write through an outer store, a nested transaction) or that never settles would stop every later
 * write of the process. The timer is Node's own (`node:timers`), so a test's fake timers neither
 * fire nor hold it.
 */
export const createMemoryUnitOfWork = (
  database: MemoryDatabase,
  {
    clock,
    jobSequence,
    timeoutMs,
  }: { readonly clock: Clock; readonly jobSequence: JobSequence; readonly timeoutMs: number },
): UnitOfWork => ({
  transaction: <T, E>(
    work: (stores: TransactionalStores) => ResultAsync<T, E>,
  ): ResultAsync<T, E | StorageUnavailable> =>
    ResultAsync.fromPromise(
      database.serialized(
        () =>
          new Promise<Result<T, E | StorageUnavailable>>((resolve, reject) => {
            const view = database.openTransaction();
            let ended = false;
            const end = () => {
              ended = true;
              clearTimeout(deadline);
              view.close();
            };
            const deadline = setTimeout(() => {
              end();
              reject(new Error(`The transaction did not end within ${timeoutMs} ms`));
            }, timeoutMs);
            deadline.unref();
            Promise.resolve()
              .then(() =>
                work({
                  clients: createMemoryClientRepository(view.access),
                  documents: createMemoryDocumentIndex(view.access),
                  idempotency: {
                    complete: (ref, response) => completeIdempotencyClaim(view.access, ref, response),
                    rewriteForClient: (clientId, rewrite) =>
                      rewriteClientIdempotencyRecords(view.access, clientId, rewrite),
                  },
                  events: createMemoryEventLog(view.access),
                  audit: createMemoryAuditLog(view.access),
                  webhookEndpoints: createMemoryWebhookEndpointStore(view.access),
                  webhookDeliveries: createMemoryWebhookDeliveryStore(view.access),
                  webhookJobs: createMemoryWebhookJobQueue(view.access, clock, jobSequence),
                  screeningJobs: createMemoryScreeningJobQueue(view.access, clock, jobSequence),
                  screenedNames: createMemoryScreenedNameIndex(view.access),
                }),
              )
              .then(
                (outcome) => {
                  if (ended) return;
                  // A transaction a failed write aborted does not commit, whatever its work answers.
                  const committed = outcome.isOk() ? view.commit() : ok(undefined);
                  end();
                  resolve(committed.isErr() ? err(committed.error) : outcome);
                },
                (thrown: unknown) => {
                  if (ended) return;
                  end();
                  reject(thrown);
                },
              );
          }),
      ),
      storageUnavailable('memory'),
    ).andThen((outcome): Result<T, E | StorageUnavailable> => outcome),
});
