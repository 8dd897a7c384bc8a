import type { Principal } from '@onboarding-kit/core';
import type { ApiKeyStore } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';

/**
 * Keys by their SHA-256 hex digest; the raw key never reaches this store. A Map lookup by digest
 * is safe from timing attacks without a constant-time compare: what its timing could reveal is
 * about the digest of the guess, and SHA-256's preimage resistance makes that worthless for
 * building a valid key (docs/decisions.md, "Authentication and errors").
 */
export const createMemoryApiKeyStore = (principals: Map<string, Principal>): ApiKeyStore => ({
  findPrincipal: (keyHash) => {
    const principal = principals.get(keyHash.toLowerCase());
    return okAsync(principal ?? null);
  },
  register: (keyHash, principal) => {
    principals.set(keyHash.toLowerCase(), frozenClone(principal));
    return okAsync(undefined);
  },
  revoke: (keyHash) => {
    principals.delete(keyHash.toLowerCase());
    return okAsync(undefined);
  },
});
