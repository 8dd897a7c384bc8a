import type { ResultAsync } from 'neverthrow';
import type {
  StoredWebhookEndpoint,
  WebhookEndpointAttemptResult,
  WebhookEndpointDisabledReason,
  WebhookSigningSecret,
} from '../domain/webhook-endpoint.js';
import type { StorageUnavailable } from '../errors.js';

/** The webhook endpoints of managers; every read and write is scoped to one manager. */
export interface WebhookEndpointStore {
  /**
   * Adds the endpoint unless its manager already has `maxPerManager`: false then, and nothing added.
   * Atomic against concurrent inserts for the same manager (the limit holds under a burst).
   */
  insertWithinLimit(
    endpoint: StoredWebhookEndpoint,
    maxPerManager: number,
  ): ResultAsync<boolean, StorageUnavailable>;
  /** Oldest first. */
  listForManager(managerId: string): ResultAsync<StoredWebhookEndpoint[], StorageUnavailable>;
  find(managerId: string, endpointId: string): ResultAsync<StoredWebhookEndpoint | null, StorageUnavailable>;
  /**
   * `find`, holding the endpoint against other writers until the transaction ends (PostgreSQL:
   * `SELECT … FOR UPDATE`; memory transactions run one at a time): a change computed from what it
   * read is written over what it read, so concurrent rotations queue instead of losing a race.
   */
  findForUpdate(
    managerId: string,
    endpointId: string,
  ): ResultAsync<StoredWebhookEndpoint | null, StorageUnavailable>;
  /** Removes the endpoint and its deliveries; false when the manager has no such endpoint. */
  remove(managerId: string, endpointId: string): ResultAsync<boolean, StorageUnavailable>;
  /**
   * Replaces the secrets when they are still `expected` (a compare-and-set, so two rotations at
   * once cannot both believe they won); false when they changed or the endpoint is gone.
   */
  replaceSecrets(
    managerId: string,
    endpointId: string,
    expected: readonly WebhookSigningSecret[],
    next: readonly WebhookSigningSecret[],
  ): ResultAsync<boolean, StorageUnavailable>;
  /**
   * Notes what a recorded attempt tells of the endpoint, in one atomic step (attempts of one endpoint
   * end concurrently, on several processes): `succeeded` clears `failingSince`; `failed` and `gone`
   * set it unless set. A still-enabled endpoint is then disabled, at `at`, on `gone` (reason `gone`),
   * or on `failed` when `failingSince` is `disableAfterFailingMs` or more before `at` (reason
   * `failing`). A success never enables it again (its manager does). Answers the reason when this
   * call disabled it, null otherwise (also when the endpoint is gone).
   */
  noteAttemptResult(
    managerId: string,
    endpointId: string,
    result: WebhookEndpointAttemptResult,
    at: Date,
    disableAfterFailingMs: number,
  ): ResultAsync<WebhookEndpointDisabledReason | null, StorageUnavailable>;
  /** Enables it again: clears `disabledAt`, `disabledReason` and `failingSince`; false when not the manager's. */
  enable(managerId: string, endpointId: string): ResultAsync<boolean, StorageUnavailable>;
}
