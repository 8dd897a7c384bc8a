import { errAsync, okAsync } from 'neverthrow';
import { hashApiKey } from './auth/api-key-hash.js';
import { unauthorized, validationFailed } from './errors.js';
import type {
  OnboardingKit,
  OnboardingKitOptions,
  OnboardingKitPorts,
  ResolvedOnboardingKitOptions,
} from './onboarding-kit.js';
import { portableTextHashing } from './ports/text-hashing.js';
import { createOnboardingPayloadSchemas } from './schemas/onboarding-payloads.js';
import { createClientEventService } from './services/client-event-service.js';
import { createClientService } from './services/client-onboarding-service.js';
import { createComplianceReviewService } from './services/compliance-review-service.js';
import { createDocumentService } from './services/document-service.js';
import { createIdempotencyService } from './services/idempotency-service.js';
import type { KitContext } from './services/kit-context.js';
import { createPresetFeeService } from './services/preset-fee-service.js';
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
  idempotencyMaxRecordsPerOwner: 10_000,
  webhookRetryWindowMs: 3 * 24 * HOUR,
  webhookAttemptTimeoutMs: 10_000,
  webhookSecretOverlapMs: 24 * HOUR,
  webhookAllowPrivateNetworks: false,
  maxWebhookEndpointsPerManager: 20,
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

/** Wires every service of the kit onto the host's adapters, in one call. */
export const createOnboardingKit = ({
  options,
  ...ports
}: OnboardingKitPorts & { readonly options?: OnboardingKitOptions }): OnboardingKit => {
  const resolved = resolveOnboardingKitOptions(options);
  const hashing = ports.hashing ?? portableTextHashing;
  const ctx: KitContext = {
    ports,
    options: resolved,
    schemas: createOnboardingPayloadSchemas(resolved.referenceLists),
    hashing,
  };
  return {
    options: resolved,
    payloadSchemas: ctx.schemas,
    authenticate: (apiKey) =>
      apiKey === undefined || apiKey.trim() === ''
        ? errAsync(unauthorized())
        : ports.apiKeys
            .findPrincipal(hashApiKey(apiKey.trim(), hashing))
            .andThen((principal) =>
              principal === null ? errAsync(unauthorized('The API key is not valid')) : okAsync(principal),
            ),
    registerApiKey: (apiKey, principal) =>
      apiKey.trim() === ''
        ? errAsync(
            validationFailed('An API key must not be blank', { apiKey: ['Required, must not be blank'] }),
          )
        : ports.apiKeys.register(hashApiKey(apiKey.trim(), hashing), principal),
    clients: createClientService(ctx),
    compliance: createComplianceReviewService(ctx),
    documents: createDocumentService(ctx),
    presetFees: createPresetFeeService(ctx),
    events: createClientEventService(ctx),
    webhooks: createWebhookService(ctx),
    idempotency: createIdempotencyService(ctx),
  };
};
