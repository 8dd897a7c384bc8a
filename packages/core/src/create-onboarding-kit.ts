import { auditSealerOf, checkAuditSealingKeys } from './domain/audit-seal.js';
import { type KitContext, portableTextHashing, randomUuids, systemClock } from './kit-context.js';
import type { OnboardingKit } from './onboarding-kit.js';
import { checkOnboardingKitOptions } from './onboarding-kit-option-rules.js';
import type { OnboardingKitOptions, ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
import type { OnboardingKitPorts } from './onboarding-kit-ports.js';
import { createOnboardingPayloadSchemas } from './schemas/payload-schemas.js';
import { createApiKeyService } from './services/api-key-service.js';
import { createAuditTrailService } from './services/audit-trail-service.js';
import { createClientEventService } from './services/client-event-service.js';
import { createClientService } from './services/client-service.js';
import { createComplianceService } from './services/compliance-service.js';
import { createDocumentService } from './services/document-service.js';
import { createIdempotencyService } from './services/idempotency-service.js';
import { createPresetFeeService } from './services/preset-fee-service.js';
import { createRedactionService } from './services/redaction-service.js';
import { createReviewService } from './services/review-service.js';
import { createScreeningService } from './services/screening-service.js';
import { createWebhookService } from './services/webhook-service.js';
import { defaultReferenceLists } from './validation/reference-lists.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const defaultOnboardingKitOptions: ResolvedOnboardingKitOptions = {
  referenceLists: defaultReferenceLists,
  maxDocumentBytes: 25 * 1024 * 1024,
  uploadUrlTtlMs: 15 * MINUTE,
  downloadUrlTtlMs: 15 * MINUTE,
  temporaryFileTtlMs: 24 * HOUR,
  idempotencyRecordTtlMs: 24 * HOUR,
  idempotencyLockTtlMs: MINUTE,
  idempotencyLockMaxRenewalMs: 5 * MINUTE,
  idempotencyMaxRecordsPerOwner: 10_000,
  webhookRetryWindowMs: 3 * 24 * HOUR,
  webhookAttemptTimeoutMs: 10_000,
  webhookSecretOverlapMs: 24 * HOUR,
  webhookAllowPrivateNetworks: false,
  maxWebhookEndpointsPerManager: 20,
  apiKeyCacheTtlMs: 10_000,
  apiKeyCacheMaxEntries: 10_000,
  retentionAfterDeletionDays: 1825,
};

export const resolveOnboardingKitOptions = (
  options: OnboardingKitOptions = {},
): ResolvedOnboardingKitOptions => {
  const { referenceLists, ...rest } = options;
  return {
    ...defaultOnboardingKitOptions,
    ...rest,
    referenceLists: { ...defaultReferenceLists, ...referenceLists },
  };
};

/**
 * Wires every service of the kit onto the host's adapters, in one call:
 * `createOnboardingKit({ ...adapters, options })`. Invalid options (an unknown name, a wrong type, a
 * value out of range), `auditSealing` keys that cannot seal (too short, `sealWith` not among them)
 * and a second argument are programmer errors: it throws a TypeError naming them.
 */
export const createOnboardingKit = (
  { options, ...ports }: OnboardingKitPorts & { readonly options?: OnboardingKitOptions },
  ...unexpected: readonly never[]
): OnboardingKit => {
  if (unexpected.length > 0) {
    throw new TypeError(
      'createOnboardingKit takes one argument: pass the options inside it, createOnboardingKit({ ...adapters, options })',
    );
  }
  const checked = checkOnboardingKitOptions(resolveOnboardingKitOptions(options));
  if (checked.isErr()) throw new TypeError(checked.error);
  const resolved = checked.value;
  if (ports.auditSealing !== undefined) {
    const sealing = checkAuditSealingKeys(ports.auditSealing);
    if (sealing.isErr()) throw new TypeError(sealing.error);
  }
  const hashing = ports.hashing ?? portableTextHashing;
  const ctx: KitContext = {
    ports: { ...ports, clock: ports.clock ?? systemClock, ids: ports.ids ?? randomUuids },
    options: resolved,
    schemas: createOnboardingPayloadSchemas(resolved.referenceLists),
    hashing,
    auditSealer: ports.auditSealing === undefined ? undefined : auditSealerOf(ports.auditSealing),
  };
  return {
    options: resolved,
    payloadSchemas: ctx.schemas,
    apiKeys: createApiKeyService(ctx),
    clients: createClientService(ctx),
    compliance: createComplianceService(ctx),
    documents: createDocumentService(ctx),
    presetFees: createPresetFeeService(ctx),
    events: createClientEventService(ctx),
    webhooks: createWebhookService(ctx),
    idempotency: createIdempotencyService(ctx),
    audit: createAuditTrailService(ctx),
    redaction: createRedactionService(ctx),
    screening: createScreeningService(ctx),
    review: createReviewService(ctx),
  };
};
