import {
  type Clock,
  type StorageUnavailable,
  storageUnavailable,
  type TransactionalStores,
  type UnitOfWork,
} from '@onboarding-kit/core';
import { type Result, ResultAsync } from 'neverthrow';
import { createMemoryClientRepository } from './memory-client-repository.js';
import type { MemoryDatabase } from './memory-database.js';
import { createMemoryDocumentIndex } from './memory-document-index.js';
import { createMemoryEventLog } from './memory-event-log.js';
import { completeIdempotencyClaim } from './memory-idempotency-store.js';
import { createMemoryWebhookDeliveryStore } from './memory-webhook-delivery-store.js';
import { createMemoryWebhookJobQueue, type JobSequence } from './memory-webhook-job-queue.js';

/**
 * Transactions one at a time (a promise-chain lock): the work's writes are staged, visible to its
 * own reads, applied when it resolves Ok and dropped when it resolves Err, rejects or throws.
 */
export const createMemoryUnitOfWork = (
  database: MemoryDatabase,
  { clock, jobSequence }: { readonly clock: Clock; readonly jobSequence: JobSequence },
): UnitOfWork => ({
  transaction: <T, E>(
    work: (stores: TransactionalStores) => ResultAsync<T, E>,
  ): ResultAsync<T, E | StorageUnavailable> =>
    ResultAsync.fromPromise(
      database.serialized(async () => {
        const staging = database.openStaging();
        try {
          const outcome = await work({
            clients: createMemoryClientRepository(staging.access),
            documents: createMemoryDocumentIndex(staging.access),
            idempotency: {
              complete: (ref, response) => completeIdempotencyClaim(staging.access, ref, response),
            },
            events: createMemoryEventLog(staging.access),
            webhookDeliveries: createMemoryWebhookDeliveryStore(staging.access),
            webhookJobs: createMemoryWebhookJobQueue(staging.access, clock, jobSequence),
          });
          if (outcome.isOk()) staging.commit();
          return outcome;
        } finally {
          staging.close();
        }
      }),
      storageUnavailable('memory'),
    ).andThen((outcome): Result<T, E | StorageUnavailable> => outcome),
});
