import type { Clock } from '@onboarding-kit/core';
import type { UnitOfWork } from '@onboarding-kit/core/adapter';
import { createMemoryAuditLog } from './memory-audit-log.js';
import { createMemoryClientRepository } from './memory-client-repository.js';
import type { MemoryDatabase } from './memory-database.js';
import { createMemoryDocumentIndex } from './memory-document-index.js';
import { createMemoryEventLog } from './memory-event-log.js';
import { createMemoryIdempotencyStore } from './memory-idempotency-store.js';
import { createMemoryScreenedNameIndex } from './memory-screened-name-index.js';
import { createMemoryScreeningJobQueue } from './memory-screening-job-queue.js';
import { createMemoryWebhookDeliveryStore } from './memory-webhook-delivery-store.js';
import { createMemoryWebhookEndpointStore } from './memory-webhook-endpoint-store.js';
import { createMemoryWebhookJobQueue } from './memory-webhook-job-queue.js';

/** Every store over the transaction's own tables (memory-database.ts says how they commit). */
export const createMemoryUnitOfWork = (database: MemoryDatabase, clock: Clock): UnitOfWork => ({
  transaction: (work) =>
    database.transaction((access) =>
      work({
        clients: createMemoryClientRepository(access),
        documents: createMemoryDocumentIndex(access),
        idempotency: createMemoryIdempotencyStore(access),
        events: createMemoryEventLog(access),
        audit: createMemoryAuditLog(access),
        webhookEndpoints: createMemoryWebhookEndpointStore(access),
        webhookDeliveries: createMemoryWebhookDeliveryStore(access),
        webhookJobs: createMemoryWebhookJobQueue(access, clock),
        screeningJobs: createMemoryScreeningJobQueue(access, clock),
        screenedNames: createMemoryScreenedNameIndex(access),
      }),
    ),
});
