import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import {
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
  type ValidationFailed,
  validationFailed,
} from '../errors.js';
import { type KitContext, portableTextHashing } from '../kit-context.js';
import type { TextHashing } from '../ports/text-hashing.js';
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

/**
 * The principals of recently used API keys, by digest, for `ttlMs` after each was read from the
 * ApiKeyStore: a request then costs no store lookup (on PostgreSQL, a round trip). The trade-off:
 * a key revoked behind this process's back (another process, or a row deleted by hand) keeps
 * working here for up to `ttlMs`; a key revoked or re-pointed through this kit is dropped at once.
 * Only hits are kept (an unknown key is asked of the store every time, so a key registered
 * elsewhere works at once, and guessing keys cannot fill the cache), at most `maxEntries`, the
 * oldest entry evicted first. Raw keys are never kept, only their digests.
 */
export type ApiKeyCache = {
  /** The principal cached for `digest`, if it was read less than `ttlMs` ago. */
  get(digest: string, nowMs: number): Principal | undefined;
  /** Where a lookup starts: its answer is kept only if no key was dropped meanwhile. */
  readonly generation: () => number;
  /** Keeps what the store answered for a lookup that started at `generation`. */
  set(digest: string, principal: Principal, nowMs: number, generation: number): void;
  /** Drops a key (revoked or re-pointed), and any answer of a lookup still in flight. */
  drop(digest: string): void;
  readonly size: () => number;
};

export type ApiKeyCacheOptions = { readonly ttlMs: number; readonly maxEntries: number };

export const createApiKeyCache = ({ ttlMs, maxEntries }: ApiKeyCacheOptions): ApiKeyCache => {
  const entries = new Map<string, { readonly principal: Principal; readonly expiresAt: number }>();
  // Bumped by every drop: a lookup that started before it may have read the dropped key.
  let generation = 0;
  const enabled = ttlMs > 0 && maxEntries > 0;
  return {
    get: (digest, nowMs) => {
      const entry = entries.get(digest);
      if (entry === undefined) return undefined;
      if (entry.expiresAt > nowMs) return entry.principal;
      entries.delete(digest);
      return undefined;
    },
    generation: () => generation,
    set: (digest, principal, nowMs, startedAt) => {
      if (!enabled || startedAt !== generation) return;
      entries.delete(digest);
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: the first key is the oldest entry.
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      // Shared by every request of that key: no caller may change it.
      entries.set(digest, { principal: Object.freeze({ ...principal }), expiresAt: nowMs + ttlMs });
    },
    drop: (digest) => {
      generation += 1;
      entries.delete(digest);
    },
    size: () => entries.size,
  };
};
