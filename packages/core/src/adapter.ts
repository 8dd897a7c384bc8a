/**
 * @onboarding-kit/core/adapter — what an adapter author (and the Express binding) builds with: the
 * ports and the stored types they hold, the error constructors a port answers with, and the small
 * helpers adapters share. A host wiring adapters needs only `@onboarding-kit/core`. Pinned by
 * `docs/api/core-adapter.exports.txt`.
 */

// --- Ports ----------------------------------------------------------------------------------------
export type { ApiKeyStore } from './ports/api-key-store.js';
export {
  type AuditLog,
  type AuditLogQuery,
  type PositionedAuditEntry,
  REDACTED_VALUE,
} from './ports/audit-log.js';
export type {
  ClientListCursor,
  ClientListQuery,
  ClientRepository,
  ReviewQueueFilter,
  ReviewQueuePosition,
  ReviewQueueQuery,
  ReviewQueueRow,
  StaleClientState,
} from './ports/client-repository.js';
export type { DocumentIndex, UploadClaim } from './ports/document-index.js';
export type {
  DocumentStorage,
  PermanentDocument,
  PermanentDocumentPage,
  PresignedUpload,
  PromotionItem,
  UsedTemporaryFile,
} from './ports/document-storage.js';
export type { EventLog, EventLogQuery, LoggedEvent, PositionedEvent } from './ports/event-log.js';
export type { IdGenerator } from './ports/id-generator.js';
export type { IdempotencyLockLost } from './errors.js';
export type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyClaimRequest,
  IdempotencyStore,
  RecordedOutcome,
} from './ports/idempotency-store.js';
export type { PresetFeeRepository } from './ports/preset-fee-repository.js';
export type {
  IndexedScreeningName,
  ScreenedNameCandidate,
  ScreenedNameCursor,
  ScreenedNameIndex,
  ScreenedNameQuery,
} from './ports/screened-name-index.js';
export type {
  ChangedListTarget,
  ListChangeJob,
  NameIndexingJob,
  ScreeningJob,
  ScreeningJobQueue,
} from './ports/screening-job-queue.js';
export {
  type ScreeningBirthDateEvidence,
  type ScreeningCountryEvidence,
  type ScreeningExplanation,
  type ScreeningListEntry,
  type ScreeningMatch,
  type ScreeningProvider,
  type ScreeningScope,
  type ScreeningSubject,
  type ScreeningTokenMatch,
  type ScreeningUnavailable,
  screeningUnavailable,
} from './ports/screening-provider.js';
export type { TextHashing } from './ports/text-hashing.js';
export { portableTextHashing } from './kit-context.js';
export type { TransactionalStores, UnitOfWork } from './ports/unit-of-work.js';
export type { WebhookDeliveryQuery, WebhookDeliveryStore } from './ports/webhook-delivery-store.js';
export type { WebhookEndpointStore } from './ports/webhook-endpoint-store.js';
export type { PutOffDelivery, WebhookJob, WebhookJobQueue } from './ports/webhook-job-queue.js';
export type { WebhookAnswer, WebhookRequest, WebhookTransport } from './ports/webhook-transport.js';

// --- What the ports store -------------------------------------------------------------------------
export {
  AUDIT_BACKDATING_TOLERANCE_MS,
  type AuditChainBreak,
  type AuditChainLink,
  auditEntryHash,
  type ChainedAuditEntry,
  firstAuditChainBreak,
  isBackdated,
  nextAuditChainLink,
} from './domain/audit-chain.js';
export { type AuditSeal, type AuditSealer, auditSealValue } from './domain/audit-seal.js';
export type { StoredClient } from './domain/client.js';
export { type DocumentRecord, documentKeyFor, type TemporaryFile } from './domain/documents.js';
export type { StoredWebhookDelivery } from './domain/webhook-delivery.js';
export {
  DISABLE_AFTER_FAILING_MS,
  type StoredWebhookEndpoint,
  type WebhookEndpointAttemptResult,
  type WebhookEndpointDisabledReason,
  type WebhookSigningSecret,
} from './domain/webhook-endpoint.js';

// --- Errors: each type and its constructor --------------------------------------------------------
export {
  type ClientChanged,
  type ClientNotFound,
  type ClientTypeMismatch,
  type CommitOutcomeUnknown,
  clientChanged,
  clientNotFound,
  clientTypeMismatch,
  commitOutcomeUnknown,
  type DocumentNotFound,
  documentNotFound,
  type Forbidden,
  forbidden,
  type IdempotencyKeyReused,
  type IdempotencyQuotaExceeded,
  type IdempotencyRequestInProgress,
  type InvalidStatus,
  idempotencyKeyReused,
  idempotencyRequestInProgress,
  invalidStatus,
  isRecordableRefusal,
  type PresetFeeIdTaken,
  type PresetFeeNotFound,
  presetFeeIdTaken,
  presetFeeNotFound,
  type RecordableRefusal,
  type ScreeningHitNotFound,
  type ScreeningUnresolved,
  type SignedLinkRejected,
  type StorageUnavailable,
  screeningHitNotFound,
  screeningUnresolved,
  signedLinkRejected,
  storageUnavailable,
  type TemporaryFilesChanged,
  type TemporaryStorageFull,
  temporaryFilesChanged,
  temporaryStorageFull,
  type Unauthorized,
  unauthorized,
  type ValidationFailed,
  validationFailed,
  type WebhookDeliveryNotFound,
  type WebhookEndpointLimitReached,
  type WebhookEndpointNotFound,
  webhookDeliveryNotFound,
  webhookEndpointLimitReached,
  webhookEndpointNotFound,
} from './errors.js';

// --- Idempotency keys and request fingerprints (the binding's middleware) -------------------------
export { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from './services/idempotency-service.js';
export { fingerprintRequestBody } from './services/idempotency-service.js';
export { REDACTED_FINGERPRINT } from './ports/idempotency-store.js';

// --- Helpers adapters share -----------------------------------------------------------------------
export { hashApiKey } from './services/api-key-service.js';
export { MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD } from './commands/document-promotion.js';
export { attachmentContentDisposition } from './domain/attachment-content-disposition.js';
export { screeningKeysOfWords, screeningNameKeys } from './domain/screening-name-keys.js';
export { replaceDocumentReferences } from './domain/documents.js';
export { newestFirst } from './domain/newest-first.js';
export { isUuid } from './validation/parse-request.js';
export { redactClient, redactClientEvent, redactedDocumentKey } from './domain/client-redaction.js';
export { type SettledItem, settleBounded } from './results/bounded-concurrency.js';
export { hasUnstorableCharacter, UNSTORABLE_TEXT_MESSAGE } from './validation/parse-request.js';
export { isPublicUnicastAddress } from './validation/webhook-endpoint-url.js';
