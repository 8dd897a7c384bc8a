/**
 * @onboarding-kit/core — what a host application uses: wiring the kit, its services and their
 * types, who calls (principals), the errors a host sees, the wire types of clients, documents, fees,
 * events and webhooks, the reference lists, and webhook verification for receivers.
 *
 * Adapter authors import ports, stored types, error constructors and helpers from
 * `@onboarding-kit/core/adapter`; the zod schemas of the wire shapes and the field validators are in
 * `@onboarding-kit/core/schemas`. Anything not exported by one of the three is internal. Each list
 * is pinned by `docs/api/core*.exports.txt` (a test fails when it changes without that file).
 */

// --- Wiring the kit, and its background work ------------------------------------------------------
export { createOnboardingKit, defaultOnboardingKitOptions } from './create-onboarding-kit.js';
export type { OnboardingKit } from './onboarding-kit.js';
export type { OnboardingKitOptions, ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
export type { OnboardingKitPorts } from './onboarding-kit-ports.js';
export type { Clock } from './ports/clock.js';
export { randomUuids, systemClock } from './kit-context.js';
// Test doubles of the clock, the ids and the webhook transport, for a host's tests on any adapters.
export { type ControllableClock, createControllableClock } from './test-doubles/controllable-clock.js';
export {
  createRecordingWebhookTransport,
  type RecordingWebhookTransport,
} from './test-doubles/recording-webhook-transport.js';
export { createSequentialIds } from './test-doubles/sequential-ids.js';
export {
  type KitMaintenance,
  type KitMaintenanceOptions,
  type MaintenanceLogger,
  startKitMaintenance,
} from './services/kit-maintenance.js';

// --- The services of the kit ----------------------------------------------------------------------
export type { ClientCommandContext } from './commands/client-transition.js';
export type { IdempotentCommandContext } from './commands/idempotent-command.js';
export type { ApiKeyService } from './services/api-key-service.js';
export type { ClientEventService } from './services/client-event-service.js';
export type { ClientService } from './services/client-service.js';
export type { ComplianceService } from './services/compliance-service.js';
export type { DocumentService } from './services/document-service.js';
export type {
  IdempotencyClaimInput,
  IdempotencyDecision,
  IdempotencyService,
} from './services/idempotency-service.js';
export type { PresetFeeService } from './services/preset-fee-service.js';
export type { RedactionService } from './services/redaction-service.js';
export type { ListChangeReceipt } from './services/screening-monitoring.js';
export type { ReviewService } from './services/review-service.js';
export type {
  ScreeningJobFailure,
  ScreeningJobReport,
  ScreeningService,
} from './services/screening-service.js';
export type { WebhookJobOptions, WebhookJobReport, WebhookService } from './services/webhook-service.js';

// --- Who calls ------------------------------------------------------------------------------------
export {
  type ClientPrincipal,
  type CompliancePrincipal,
  type ManagerPrincipal,
  type Principal,
  principalKey,
  type UploaderPrincipal,
} from './principal.js';

// --- The errors a host sees (tagged objects; the Express binding maps them to HTTP) ----------------
export type { DomainError, DomainErrorType, ParameterErrors } from './errors.js';
export { type ErrorBody, type ErrorCode, errorCodes } from './schemas/error-body.js';

// --- Clients, their statuses and what they are made of --------------------------------------------
export {
  type BankAccount,
  type BankAccountIdentifierFormat,
  type BankAccountIdentifiers,
  type BlockchainWallet,
  bankAccountIdentifierFormats,
  bankAccountTypes,
  type Client,
  type ClientListResponse,
  type ClientRequirement,
  type ClientRequirementCode,
  clientRequirementCodes,
  type ClientStatus,
  type ClientType,
  type Company,
  type CompanyDirectorsAndUbos,
  type CompanyRepresentative,
  clientStatuses,
  clientTypes,
  type IndividualProfile,
  type IndividualSourceOfFunds,
  type RepresentativeRole,
  type ResubmissionRequirement,
  type ReviewAssignment,
  type ResubmissionRequirementCode,
  representativeRoles,
  resubmissionRequirementCodes,
  type Screening,
  type ScreeningHit,
  type ScreeningResolution,
  type StatusHistoryEntry,
  type TermsAcceptance,
} from './schemas/client-response.js';
// The version a reviewer decides on (`ClientCommandContext.expectedVersion`, the compliance ETag).
export { clientVersion } from './domain/client-version.js';
export {
  type ClientStatusTransition,
  type ClientStatusTrigger,
  clientStatusTransitions,
  type TransitionActor,
} from './domain/status-machine.js';

// --- Onboarding payloads, example payloads and the reference lists --------------------------------
export type {
  CreateBankAccountPayload,
  CreateBlockchainWalletPayload,
  EntityOnboardingPayload,
  IndividualOnboardingPayload,
} from './schemas/onboarding-payloads.js';
export {
  type EntityExampleDocuments,
  exampleEntityPayload,
  exampleIndividualPayload,
  type IndividualExampleDocuments,
} from './schemas/example-payloads.js';
export {
  defaultReferenceLists,
  type ReferenceLists,
  withReferenceLists,
} from './validation/reference-lists.js';
export { iso3166CountryCodes } from './validation/iso-3166-country-codes.js';
export { iso4217CurrencyCodes, iso4217FiatCurrencyCodes } from './validation/iso-4217-currency-codes.js';
export { type BlockchainAddressFormat, blockchainAddressFormats } from './validation/account-identifiers.js';

// --- The demo's data: fixed identities and keys, seeded through the ports on any adapters ---------
export { type DemoSeedPorts, demoClientA1, demoIdentities, seedDemoData } from './demo-seed.js';

// --- The audit trail of a client ------------------------------------------------------------------
export {
  type AuditAction,
  type AuditActor,
  type AuditAnchor,
  type AuditChange,
  type AuditChainBreakReason,
  type AuditEntry,
  type AuditListResponse,
  type AuditVerification,
  auditActions,
  auditChainBreakReasons,
} from './schemas/audit.js';
export type { AuditSealingKeys } from './domain/audit-seal.js';
export type { AuditTrailService } from './services/audit-trail-service.js';

// --- Compliance review and documents --------------------------------------------------------------
export { type ReviewQueueStatus, reviewQueueStatuses } from './domain/review-queue.js';
export {
  type AssignNextBody,
  type AssignNextResponse,
  type ReviewQueueEntry,
  type ReviewQueueQueryInput,
  type ReviewQueueResponse,
  type ReviewQueueScreening,
  reviewQueueAssignees,
  reviewQueueScreenings,
} from './schemas/review-queue.js';
export type {
  RequestResubmissionBody,
  ResolveScreeningHitBody,
  TermsSignedBody,
} from './schemas/compliance.js';
export type {
  BatchDownloadRequest,
  BatchDownloadResponse,
  BatchUploadRequest,
  BatchUploadResponse,
  TemporaryFilesResponse,
} from './schemas/documents.js';

// --- Preset fees ----------------------------------------------------------------------------------
export { evaluateFee } from './domain/fee-models.js';
export {
  type FeeConfiguration,
  type FeeDirection,
  feeDirections,
  type PresetFee,
  type PresetFeeListItem,
  type PresetFeeResponse,
} from './schemas/preset-fee.js';

// --- Events, webhooks, and verifying a delivery in a receiver -------------------------------------
export {
  CLIENT_EVENT_API_VERSION,
  type ClientEvent,
  type ClientEventListResponse,
  type ClientEventType,
  clientEventTypes,
} from './schemas/client-events.js';
export type {
  CreatedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryListResponse,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookSecretRotationResponse,
} from './schemas/webhook-endpoints.js';
export {
  type ReceivedWebhookHeaders,
  type VerifiedWebhook,
  verifyWebhook,
  type WebhookSignatureHeaders,
  type WebhookVerificationFailed,
} from './webhooks/webhook-signature.js';
