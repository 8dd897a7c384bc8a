import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { createApiKeyCache } from '../auth/api-key-cache.js';
import { hashApiKey } from '../auth/api-key-hash.js';
import {
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
  type ValidationFailed,
  validationFailed,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { Principal } from '../principal.js';

/** API keys of the three interfaces: resolving a presented key, and registering or revoking one. */
export interface ApiKeyService {
  /** Resolves a raw `SERVICE_API_KEY` value to its principal. */
  authenticate(apiKey: string | undefined): ResultAsync<Principal, Unauthorized | StorageUnavailable>;
  /**
   * Registers an API key (stored as its SHA-256 digest only), trimmed as `authenticate` trims what a
   * request presents; a blank key is `ValidationFailed`.
   */
  registerApiKey(
    apiKey: string,
    principal: Principal,
  ): ResultAsync<void, ValidationFailed | StorageUnavailable>;
  /**
   * Revokes an API key (trimmed like `registerApiKey`): from then on it is 401 through this kit,
   * and within `apiKeyCacheTtlMs` through any other kit on the same store. Revoking an unknown
   * key is not an error; a blank key is `ValidationFailed`.
   */
  revokeApiKey(apiKey: string): ResultAsync<void, ValidationFailed | StorageUnavailable>;
}

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
  };
};
