import { hashApiKey } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

describe('memory ApiKeyStore revoke', () => {
  it('removes the digest, so the key resolves to no principal; an unknown digest is fine', async () => {
    const adapters = createMemoryAdapters();
    const digest = hashApiKey('sk_revoked');
    (await adapters.apiKeys.register(digest, { kind: 'compliance', complianceId: 'c-1' }))._unsafeUnwrap();
    (await adapters.apiKeys.revoke(digest.toUpperCase()))._unsafeUnwrap();
    expect((await adapters.apiKeys.findPrincipal(digest))._unsafeUnwrap()).toBeNull();
    expect(adapters.testing.listApiKeyDigests()).toEqual([]);
    (await adapters.apiKeys.revoke(hashApiKey('sk_never_registered')))._unsafeUnwrap();
  });
});
