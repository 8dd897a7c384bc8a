import type { ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
import type { OnboardingPayloadSchemas } from './schemas/onboarding-payloads.js';
import type { ApiKeyService } from './services/api-key-service.js';
import type { AuditTrailService } from './services/audit-trail-service.js';
import type { ClientEventService } from './services/client-event-service.js';
import type { ClientService } from './services/client-service.js';
import type { ComplianceService } from './services/compliance-service.js';
import type { DocumentService } from './services/document-service.js';
import type { IdempotencyService } from './services/idempotency-service.js';
import type { PresetFeeService } from './services/preset-fee-service.js';
import type { RedactionService } from './services/redaction-service.js';
import type { ReviewService } from './services/review-service.js';
import type { ScreeningService } from './services/screening-service.js';
import type { WebhookService } from './services/webhook-service.js';

/** The kit a host wires once (`createOnboardingKit`): its services, each defined in its own file. */
export interface OnboardingKit {
  readonly options: ResolvedOnboardingKitOptions;
  readonly apiKeys: ApiKeyService;
  readonly payloadSchemas: OnboardingPayloadSchemas;
  readonly clients: ClientService;
  readonly compliance: ComplianceService;
  readonly documents: DocumentService;
  readonly presetFees: PresetFeeService;
  readonly events: ClientEventService;
  readonly webhooks: WebhookService;
  readonly idempotency: IdempotencyService;
  readonly audit: AuditTrailService;
  readonly redaction: RedactionService;
  readonly screening: ScreeningService;
  readonly review: ReviewService;
}
