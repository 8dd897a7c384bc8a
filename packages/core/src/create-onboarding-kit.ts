import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { createApiKeyCache } from './auth/api-key-cache.js';
import { hashApiKey } from './auth/api-key-hash.js';
import { unauthorized, type ValidationFailed, validationFailed } from './errors.js';
import { checkOnboardingKitOptions } from './kit-options.js';
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
  idempotencyLockMaxRenewalMs: 5 * MINUTE,
  idempotencyMaxRecordsPerOwner: 10_000,
  webhookRetryWindowMs: 3 * 24 * HOUR,
  webhookAttemptTimeoutMs: 10_000,
  webhookSecretOverlapMs: 24 * HOUR,
  webhookAllowPrivateNetworks: false,
  maxWebhookEndpointsPerManager: 20,
  apiKeyCacheTtlMs: 10_000,
  apiKeyCacheMaxEntries: 10_000,
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
 * value out of range) and a second argument are programmer errors: it throws a TypeError naming them.
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
  const hashing = ports.hashing ?? portableTextHashing;
  const ctx: KitContext = {
    ports,
    options: resolved,
    schemas: createOnboardingPayloadSchemas(resolved.referenceLists),
    hashing,
  };
  const apiKeys = createApiKeyCache({
    ttlMs: resolved.apiKeyCacheTtlMs,
    maxEntries: resolved.apiKeyCacheMaxEntries,
  });
  /** A key as `authenticate` reads it (trimmed), refused when blank. */
  const withApiKeyDigest = <T, E>(
    apiKey: string,
    use: (digest: string) => ResultAsync<T, E>,
  ): ResultAsync<T, E | ValidationFailed> =>
    apiKey.trim() === ''
      ? errAsync(
          validationFailed('An API key must not be blank', { apiKey: ['Required, must not be blank'] }),
        )
      : use(hashApiKey(apiKey.trim(), hashing));
  return {
    options: resolved,
    payloadSchemas: ctx.schemas,
    authenticate: (apiKey) => {
      const presented = apiKey?.trim() ?? '';
      if (presented === '') return errAsync(unauthorized());
      const digest = hashApiKey(presented, hashing);
      const cached = apiKeys.get(digest, ports.clock.now().getTime());
      if (cached !== undefined) return okAsync(cached);
      const generation = apiKeys.generation();
      return ports.apiKeys.findPrincipal(digest).andThen((principal) => {
        if (principal === null) return errAsync(unauthorized('The API key is not valid'));
        apiKeys.set(digest, principal, ports.clock.now().getTime(), generation);
        return okAsync(principal);
      });
    },
    registerApiKey: (apiKey, principal) =>
      withApiKeyDigest(apiKey, (digest) =>
        ports.apiKeys.register(digest, principal).andThen(() => {
          apiKeys.drop(digest);
          return ok(undefined);
        }),
      ),
    revokeApiKey: (apiKey) =>
      withApiKeyDigest(apiKey, (digest) => {
        // Dropped before and after: no lookup running meanwhile may keep the key.
        apiKeys.drop(digest);
        return ports.apiKeys.revoke(digest).andThen(() => {
          apiKeys.drop(digest);
          return ok(undefined);
        });
      }),
    clients: createClientService(ctx),
    compliance: createComplianceReviewService(ctx),
    documents: createDocumentService(ctx),
    presetFees: createPresetFeeService(ctx),
    events: createClientEventService(ctx),
    webhooks: createWebhookService(ctx),
    idempotency: createIdempotencyService(ctx),
  };
};
