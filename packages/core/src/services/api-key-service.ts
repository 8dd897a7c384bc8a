import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import { createApiKeyCache } from '../auth/api-key-cache.js';
import {
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
  type ValidationFailed,
  validationFailed,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { portableTextHashing, type TextHashing } from '../ports/text-hashing.js';
import type { Principal } from '../principal.js';
import { toParameterErrors } from '../validation/parse-request.js';

/** API keys are stored and looked up only as the hex SHA-256 digest of the raw key. */
export const hashApiKey = (apiKey: string, hashing: TextHashing = portableTextHashing): string =>
  hashing.sha256Hex(apiKey);

/** API keys of the three interfaces (`kit.apiKeys`): resolving a presented key, and registering or revoking one. */
export interface ApiKeyService {
  /** Resolves a raw `SERVICE_API_KEY` value to its principal. */
  authenticate(apiKey: string | undefined): ResultAsync<Principal, Unauthorized | StorageUnavailable>;
  /**
   * Registers an API key (stored as its SHA-256 digest only), trimmed as `authenticate` trims what a
   * request presents. A blank key, or a principal that is not one of the three shapes (its kind and
   * ids, non-empty strings), is `ValidationFailed`, with nothing stored.
   */
  register(apiKey: string, principal: Principal): ResultAsync<void, ValidationFailed | StorageUnavailable>;
  /**
   * Revokes an API key (trimmed like `register`): from then on it is 401 through this kit, and
   * within `apiKeyCacheTtlMs` through any other kit on the same store. Revoking an unknown key is
   * not an error; a blank key is `ValidationFailed`.
   */
  revoke(apiKey: string): ResultAsync<void, ValidationFailed | StorageUnavailable>;
}

const principalId = z.string().min(1).max(255);
/** The three principals a key may stand for, exactly (a host's JavaScript may pass anything). */
const principalSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('manager'), managerId: principalId }),
  z.strictObject({ kind: z.literal('client'), clientId: principalId, managerId: principalId }),
  z.strictObject({ kind: z.literal('compliance'), complianceId: principalId }),
]);

/** Keys are looked up by digest through a short cache that this kit's own changes clear at once. */
export const createApiKeyService = ({ ports, options, hashing }: KitContext): ApiKeyService => {
  const apiKeys = createApiKeyCache({
    ttlMs: options.apiKeyCacheTtlMs,
    maxEntries: options.apiKeyCacheMaxEntries,
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
    register: (apiKey, principal) =>
      withApiKeyDigest(apiKey, (digest): ResultAsync<void, ValidationFailed | StorageUnavailable> => {
        const checked = principalSchema.safeParse(principal);
        if (!checked.success) {
          return errAsync(
            validationFailed(
              'The principal is not valid',
              toParameterErrors(checked.error.issues, ['principal']),
            ),
          );
        }
        return ports.apiKeys.register(digest, checked.data).andThen(() => {
          apiKeys.drop(digest);
          return ok(undefined);
        });
      }),
    revoke: (apiKey) =>
      withApiKeyDigest(apiKey, (digest) => {
        // Dropped before and after: no lookup running meanwhile may keep the key.
        apiKeys.drop(digest);
        return ports.apiKeys.revoke(digest).andThen(() => {
          apiKeys.drop(digest);
          return ok(undefined);
        });
      }),
  };
};
