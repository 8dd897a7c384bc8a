/**
 * The public API of @onboarding-kit/core: every name a host, an adapter or the Express binding may
 * import. Anything not listed here is internal and may change in any release. The list is pinned
 * by `docs/api/core.exports.txt` (a test fails when it changes without that file).
 */

export { hashApiKey } from './auth/api-key-hash.js';
export { MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD } from './commands/document-promotion.js';
export type { IdempotentCommandContext } from './commands/idempotent-command.js';
// --- Wiring the kit -------------------------------------------------------------------------------
export { createOnboardingKit, defaultOnboardingKitOptions } from './create-onboarding-kit.js';
export { attachmentContentDisposition } from './domain/attachment-content-disposition.js';
export { replaceDocumentReferences } from './domain/document-references.js';
export { type DocumentRecord, documentKeyFor, type TemporaryFile } from './domain/documents.js';
export { evaluateFee, validateFeeConfiguration } from './domain/fee-models.js';
export { newestFirst } from './domain/newest-first.js';
export {
  entityOnboardingInformation,
  individualOnboardingInformation,
  type OnboardingInformation,
} from './domain/onboarding-information.js';
// --- Domain rules ----------------------------------------------------------------------------------
export {
  type ClientStatusTransition,
  type ClientStatusTrigger,
  clientStatusTransitions,
  type TransitionActor,
} from './domain/status-machine.js';
export type { StoredClient } from './domain/stored-client.js';
export { isUuid } from './domain/uuid.js';
// --- Webhooks: what adapters store, what receivers verify -----------------------------------------
export type { StoredWebhookDelivery } from './domain/webhook-delivery.js';
export type { StoredWebhookEndpoint, WebhookSigningSecret } from './domain/webhook-endpoint.js';
// --- Errors (tagged objects; the Express binding maps them to HTTP) -------------------------------
export {
  type ClientNotFound,
  type ClientTypeMismatch,
  type CommitOutcomeUnknown,
  clientNotFound,
  clientTypeMismatch,
  commitOutcomeUnknown,
  type DocumentNotFound,
  type DomainError,
  type DomainErrorType,
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
  type ParameterErrors,
  type PresetFeeIdTaken,
  type PresetFeeNotFound,
  presetFeeIdTaken,
  presetFeeNotFound,
  type RecordableRefusal,
  type SignedLinkRejected,
  type StorageUnavailable,
  signedLinkRejected,
  storageUnavailable,
  type TemporaryFilesChanged,
  temporaryFilesChanged,
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
// --- Idempotency (used by the Express binding and by hosts protecting their own routes) ------------
export { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from './idempotency/idempotency-key.js';
export { fingerprintRequestBody } from './idempotency/request-fingerprint.js';
export type { OnboardingKit } from './onboarding-kit.js';
export type { OnboardingKitOptions, ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
export type { OnboardingKitPorts } from './onboarding-kit-ports.js';
// --- Ports, and what adapter authors build them with ------------------------------------------------
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
  StaleClientState,
} from './ports/client-repository.js';
export { type Clock, systemClock } from './ports/clock.js';
export type { DocumentIndex } from './ports/document-index.js';
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
export type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyClaimRequest,
  IdempotencyLockLost,
  IdempotencyStore,
  RecordedOutcome,
} from './ports/idempotency-store.js';
export type { PresetFeeRepository } from './ports/preset-fee-repository.js';
export { portableTextHashing, type TextHashing } from './ports/text-hashing.js';
export type { TransactionalStores, UnitOfWork } from './ports/unit-of-work.js';
export type { WebhookDeliveryQuery, WebhookDeliveryStore } from './ports/webhook-delivery-store.js';
export type { WebhookEndpointStore } from './ports/webhook-endpoint-store.js';
export type { WebhookJob, WebhookJobQueue } from './ports/webhook-job-queue.js';
export type { WebhookAnswer, WebhookRequest, WebhookTransport } from './ports/webhook-transport.js';
export {
  type ClientPrincipal,
  type CompliancePrincipal,
  type ManagerPrincipal,
  type Principal,
  principalKey,
  type UploaderPrincipal,
} from './principal.js';
// --- Helpers for adapter authors ----------------------------------------------------------------
export { type SettledItem, settleBounded } from './results/bounded-concurrency.js';
export {
  type AuditAction,
  type AuditActor,
  type AuditChange,
  type AuditEntry,
  type AuditListQueryInput,
  type AuditListResponse,
  auditActions,
  auditEntrySchema,
  auditListQuerySchema,
  auditListResponseSchema,
} from './schemas/audit.js';
export {
  CLIENT_EVENT_API_VERSION,
  type ClientEvent,
  type ClientEventListResponse,
  type ClientEventType,
  clientEventListQuerySchema,
  clientEventListResponseSchema,
  clientEventSchema,
  clientEventTypes,
} from './schemas/client-events.js';
export { type ClientListQueryInput, clientListQuerySchema } from './schemas/client-list-query.js';
export {
  type BankAccount,
  type BankAccountIdentifierFormat,
  type BankAccountIdentifiers,
  type BlockchainWallet,
  bankAccountIdentifierFormats,
  bankAccountTypes,
  type Client,
  type ClientListResponse,
  type ClientStatus,
  type ClientType,
  type Company,
  type CompanyDirectorsAndUbos,
  type CompanyRepresentative,
  clientListResponseSchema,
  clientSchema,
  clientStatuses,
  clientStatusSchema,
  clientTypeSchema,
  clientTypes,
  dateTimeSchema,
  type IndividualProfile,
  type IndividualSourceOfFunds,
  type RepresentativeRole,
  representativeRoleSchema,
  representativeRoles,
  type StatusHistoryEntry,
  statusHistoryResponseSchema,
} from './schemas/client-response.js';
export { type RequestResubmissionBody, requestResubmissionBodySchema } from './schemas/compliance.js';
export {
  type BatchDownloadRequest,
  type BatchDownloadResponse,
  type BatchUploadRequest,
  type BatchUploadResponse,
  batchDownloadRequestSchema,
  batchDownloadResponseSchema,
  batchUploadRequestSchema,
  batchUploadResponseSchema,
  MAX_FILENAMES_PER_BATCH,
  type TemporaryFilesResponse,
  temporaryFilesResponseSchema,
} from './schemas/documents.js';
export { type ErrorBody, type ErrorCode, errorBodySchema, errorCodes } from './schemas/error-body.js';
export {
  type EntityExampleDocuments,
  exampleEntityPayload,
  exampleIndividualPayload,
  type IndividualExampleDocuments,
} from './schemas/example-payloads.js';
// --- Wire shapes: request and response schemas, and example payloads -------------------------------
export {
  type CreateBankAccountPayload,
  type CreateBlockchainWalletPayload,
  createOnboardingPayloadSchemas,
  defaultOnboardingPayloadSchemas,
  type EntityOnboardingPayload,
  type IndividualOnboardingPayload,
  MAX_ARRAY_ITEMS,
  MAX_STRING_LENGTH,
  type OnboardingPayloadSchemas,
} from './schemas/onboarding-payloads.js';
export {
  type FeeConfiguration,
  type FeeDirection,
  feeConfigurationSchema,
  feeDirectionSchema,
  feeDirections,
  type PresetFee,
  type PresetFeeListItem,
  type PresetFeeResponse,
  presetFeeListResponseSchema,
  presetFeeSchema,
} from './schemas/preset-fee.js';
export {
  type CreatedWebhookEndpoint,
  createdWebhookEndpointSchema,
  type WebhookDelivery,
  type WebhookDeliveryListResponse,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointListResponse,
  type WebhookSecretRotationResponse,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListResponseSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointListResponseSchema,
  webhookEndpointSchema,
  webhookSecretRotationBodySchema,
  webhookSecretRotationResponseSchema,
} from './schemas/webhook-endpoints.js';
export type { ApiKeyService } from './services/api-key-service.js';
export type { AuditTrailService } from './services/audit-trail-service.js';
export type { ClientEventService } from './services/client-event-service.js';
export type { ClientService } from './services/client-service.js';
export type { ComplianceService } from './services/compliance-service.js';
export type { DocumentService } from './services/document-service.js';
export type {
  IdempotencyClaimInput,
  IdempotencyDecision,
  IdempotencyService,
} from './services/idempotency-service.js';
// --- The kit's background work (purge, sweep) on timers, started and stopped by the host ------------
export {
  type KitMaintenance,
  type KitMaintenanceOptions,
  type MaintenanceLogger,
  startKitMaintenance,
} from './services/kit-maintenance.js';
export type { PresetFeeService } from './services/preset-fee-service.js';
export type { WebhookJobReport, WebhookService } from './services/webhook-service.js';
// --- Validation rules and reference lists (hosts may reuse them in their own forms) ----------------
export { isValidAbaRoutingNumber } from './validation/aba-routing-number.js';
export { isValidBsb } from './validation/australian-bsb.js';
export {
  type BlockchainAddressFormat,
  blockchainAddressFormats,
  isValidAddressOfFormat,
  isValidEvmAddress,
  isValidSolanaAddress,
  isValidTronAddress,
} from './validation/blockchain-address.js';
export { isValidClabe } from './validation/clabe.js';
export { checkFilename, documentFilenameSchema, MAX_FILENAME_BYTES } from './validation/filename.js';
export { isValidBic, isValidIban, toElectronicIban } from './validation/iban.js';
export { isValidIfsc } from './validation/indian-ifsc.js';
export { iso3166CountryCodes } from './validation/iso-3166-country-codes.js';
export { iso4217CurrencyCodes, iso4217FiatCurrencyCodes } from './validation/iso-4217-currency-codes.js';
export { isPossibleInternationalPhoneNumber } from './validation/phone-number.js';
export {
  defaultReferenceLists,
  type ReferenceLists,
  withReferenceLists,
} from './validation/reference-lists.js';
export { hasUnstorableCharacter, UNSTORABLE_TEXT_MESSAGE } from './validation/storable-text.js';
export { isValidSortCode } from './validation/uk-sort-code.js';
export { isPublicUnicastAddress } from './validation/webhook-endpoint-url.js';
export {
  type ReceivedWebhookHeaders,
  type VerifiedWebhook,
  verifyWebhook,
  type WebhookSignatureHeaders,
  type WebhookVerificationFailed,
} from './webhooks/webhook-signature.js';
