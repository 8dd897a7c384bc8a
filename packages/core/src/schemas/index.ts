/**
 * @onboarding-kit/core/schemas — the zod schema of every wire shape (request bodies, queries,
 * responses, the error body), the bounds they enforce, and the field validators behind them, for
 * hosts that validate or document the same shapes themselves. The TypeScript types of these shapes
 * are exported by `@onboarding-kit/core`. Pinned by `docs/api/core-schemas.exports.txt`.
 */

// --- Onboarding payloads (built from the reference lists) -----------------------------------------
export { MAX_ARRAY_ITEMS, MAX_STRING_LENGTH, type OnboardingPayloadSchemas } from './onboarding-payloads.js';
export { createOnboardingPayloadSchemas, defaultOnboardingPayloadSchemas } from './payload-schemas.js';
export {
  entityOnboardingInformation,
  individualOnboardingInformation,
  type OnboardingInformation,
} from '../domain/client.js';

// --- Clients, compliance, documents ---------------------------------------------------------------
export {
  clientListResponseSchema,
  clientRequirementSchema,
  clientSchema,
  clientStatusSchema,
  clientTypeSchema,
  dateTimeSchema,
  representativeRoleSchema,
  resubmissionRequirementSchema,
  reviewAssignmentSchema,
  screeningHitSchema,
  screeningSchema,
  statusHistoryResponseSchema,
  termsAcceptanceSchema,
} from './client-response.js';
export { type ClientListQueryInput, clientListQuerySchema } from './client-list-query.js';
export {
  assignNextBodySchema,
  assignNextResponseSchema,
  reviewQueueQuerySchema,
  reviewQueueResponseSchema,
} from './review-queue.js';
export {
  MAX_RESUBMISSION_REQUIREMENTS,
  MAX_TERMS_VERSION_LENGTH,
  requestResubmissionBodySchema,
  resolveScreeningHitBodySchema,
  termsSignedBodySchema,
} from './compliance.js';
export { SIGNED_AT_CLOCK_SKEW_MS } from '../domain/terms-acceptance.js';
export {
  batchDownloadRequestSchema,
  batchDownloadResponseSchema,
  batchUploadRequestSchema,
  batchUploadResponseSchema,
  MAX_FILENAMES_PER_BATCH,
  temporaryFilesResponseSchema,
} from './documents.js';
export { checkFilename, documentFilenameSchema, MAX_FILENAME_BYTES } from '../domain/documents.js';

// --- Preset fees ----------------------------------------------------------------------------------
export { validateFeeConfiguration } from '../domain/fee-models.js';
export {
  feeConfigurationSchema,
  feeDirectionSchema,
  presetFeeListResponseSchema,
  presetFeeSchema,
} from './preset-fee.js';

// --- The audit trail ------------------------------------------------------------------------------
export {
  type AuditListQueryInput,
  type AuditVerificationQueryInput,
  auditAnchorSchema,
  auditEntrySchema,
  auditListQuerySchema,
  auditListResponseSchema,
  auditVerificationQuerySchema,
  auditVerificationSchema,
} from './audit.js';

// --- Events, webhooks, errors ---------------------------------------------------------------------
export {
  clientEventListQuerySchema,
  clientEventListResponseSchema,
  clientEventSchema,
} from './client-events.js';
export {
  createdWebhookEndpointSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListResponseSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointListResponseSchema,
  webhookEndpointSchema,
  webhookSecretRotationBodySchema,
  webhookSecretRotationResponseSchema,
} from './webhook-endpoints.js';
export { errorBodySchema } from './error-body.js';

// --- Field validators (bank identifiers, addresses, phone numbers) --------------------------------
export { isValidAbaRoutingNumber } from '../validation/account-identifiers.js';
export {
  isValidAddressOfFormat,
  isValidEvmAddress,
  isValidSolanaAddress,
  isValidTronAddress,
} from '../validation/account-identifiers.js';
export { isValidClabe } from '../validation/account-identifiers.js';
export { isValidBic, isValidIban, toElectronicIban } from '../validation/account-identifiers.js';
export {
  isPossibleInternationalPhoneNumber,
  isValidBsb,
  isValidIfsc,
  isValidSortCode,
} from './onboarding-payloads.js';
