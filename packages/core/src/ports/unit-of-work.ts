import type { ResultAsync } from 'neverthrow';
import type { CommitOutcomeUnknown, IdempotencyLockLost, StorageUnavailable } from '../errors.js';
import type { AuditLog } from './audit-log.js';
import type { ClientRepository } from './client-repository.js';
import type { DocumentIndex } from './document-index.js';
import type { EventLog } from './event-log.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { ScreenedNameIndex } from './screened-name-index.js';
import type { ScreeningJobQueue } from './screening-job-queue.js';
import type { WebhookDeliveryStore } from './webhook-delivery-store.js';
import type { WebhookEndpointStore } from './webhook-endpoint-store.js';
import type { WebhookJobQueue } from './webhook-job-queue.js';

/** The stores a command writes through, all bound to one transaction. */
export type TransactionalStores = {
  readonly clients: ClientRepository;
  readonly documents: DocumentIndex;
  readonly idempotency: Pick<IdempotencyStore, 'complete' | 'rewriteForClient'>;
  /** The command's events, committed with it (the outbox), and redaction's rewrite. */
  readonly events: Pick<EventLog, 'append' | 'rewriteForClient'>;
  /** The command's audit entries, committed with it: no entry, no change (and redaction's rewrite). */
  readonly audit: Pick<AuditLog, 'append' | 'redactChanges'>;
  /** A manager's endpoints, registered, rotated and removed together with the command's record. */
  readonly webhookEndpoints: WebhookEndpointStore;
  /** Deliveries created and attempts recorded together with the jobs that follow them up. */
  readonly webhookDeliveries: Pick<WebhookDeliveryStore, 'find' | 'insertMissing' | 'update'>;
  readonly webhookJobs: WebhookJobQueue;
  /** Screening of a created or resubmitted client, committed with it. */
  readonly screeningJobs: ScreeningJobQueue;
  /** The names a completed screening looked at, indexed with it (monitoring); emptied by redaction. */
  readonly screenedNames: Pick<ScreenedNameIndex, 'replace'>;
};

/**
 * The transaction boundary: everything `work` writes commits together when it resolves Ok, and
 * nothing of it is kept when it resolves Err or the commit fails. The commit fails
 * `StorageUnavailable` when the store refused it (a constraint, a serialization failure), and
 * `IdempotencyLockLost` when the claim whose record it completes was taken over meanwhile; such a
 * refusal may come at the commit rather than from the store call that caused it. When the
 * connection is lost during the commit, the outcome is `CommitOutcomeUnknown`: all of it or none of
 * it was kept, and the caller must not act as if it knew which.
 */
export interface UnitOfWork {
  transaction<T, E>(
    work: (stores: TransactionalStores) => ResultAsync<T, E>,
  ): ResultAsync<T, E | StorageUnavailable | CommitOutcomeUnknown | IdempotencyLockLost>;
}
