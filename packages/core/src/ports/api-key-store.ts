import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { Principal } from '../principal.js';

/** API keys, stored only as SHA-256 hex digests, each resolving to one principal. */
export interface ApiKeyStore {
  findPrincipal(keyHash: string): ResultAsync<Principal | null, StorageUnavailable>;
  register(keyHash: string, principal: Principal): ResultAsync<void, StorageUnavailable>;
  /** Removes the key: it resolves to no principal any more. An unknown hash is not an error. */
  revoke(keyHash: string): ResultAsync<void, StorageUnavailable>;
}
