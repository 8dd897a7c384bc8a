import type { ApiKeyStore } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

/**
 * Keys by their SHA-256 hex digest; the raw key never reaches this store. A Map lookup by digest
 * is safe from timing attacks without a constant-time compare: what its timing could reveal is
 * about the digest of the guess, and SHA-256's preimage resistance makes that worthless for
 * building a valid key (docs/decisions.md, "Authentication and errors").
 */
export const createMemoryApiKeyStore = (access: TableAccess): ApiKeyStore => ({
  findPrincipal: (keyHash) => access.read((tables) => tables.apiKeys.get(keyHash.toLowerCase()) ?? null),
  register: (keyHash, principal) =>
    access.write((tables) => ok(tables.apiKeys.set(keyHash.toLowerCase(), frozenClone(principal)))),
  revoke: (keyHash) => access.write((tables) => ok(tables.apiKeys.delete(keyHash.toLowerCase()))),
});
