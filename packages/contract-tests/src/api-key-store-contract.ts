import { randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '@onboarding-kit/core';
import { type ApiKeyStore, hashApiKey } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type ApiKeyStoreInspector = {
  /** Everything the backend holds for API keys, serialized as text (rows as JSON, map entries). */
  dumpStoredText(): Promise<string>;
};

export type ApiKeyStoreContractFixture = Teardown & {
  readonly apiKeys: ApiKeyStore;
  readonly inspect: ApiKeyStoreInspector;
};

export type ApiKeyStoreContractOptions = {
  readonly name: string;
  /** Called once per test; keys are random, so a shared backend works. */
  readonly setup: () => Promise<ApiKeyStoreContractFixture>;
};

const rawKey = () => `sk_test_${randomBytes(24).toString('base64url')}`;

/** ApiKeyStore (core/src/ports/api-key-store.ts): keys are stored only as SHA-256 hex digests. */
export const runApiKeyStoreContract = ({ name, setup }: ApiKeyStoreContractOptions): void => {
  describe(`ApiKeyStore contract: ${name}`, () => {
    it('resolves a registered key hash to its principal, for every kind of principal', async () => {
      const fixture = await openFixture(setup);
      const principals: Principal[] = [
        { kind: 'manager', managerId: randomUUID() },
        { kind: 'client', clientId: randomUUID(), managerId: randomUUID() },
        { kind: 'compliance', complianceId: randomUUID() },
      ];
      const keys = principals.map(() => rawKey());
      for (const [i, principal] of principals.entries()) {
        await expectOk(fixture.apiKeys.register(hashApiKey(keys[i] ?? ''), principal));
      }
      for (const [i, principal] of principals.entries()) {
        expect(await expectOk(fixture.apiKeys.findPrincipal(hashApiKey(keys[i] ?? '')))).toEqual(principal);
      }
    });

    it('answers null for an unknown hash', async () => {
      const fixture = await openFixture(setup);
      expect(await expectOk(fixture.apiKeys.findPrincipal(hashApiKey(rawKey())))).toBeNull();
    });

    it('replaces the principal when a hash is registered again (so seeding can run twice)', async () => {
      const fixture = await openFixture(setup);
      const key = rawKey();
      const second: Principal = { kind: 'manager', managerId: randomUUID() };
      await expectOk(fixture.apiKeys.register(hashApiKey(key), { kind: 'manager', managerId: randomUUID() }));
      await expectOk(fixture.apiKeys.register(hashApiKey(key), second));
      expect(await expectOk(fixture.apiKeys.findPrincipal(hashApiKey(key)))).toEqual(second);
    });

    it('never stores the raw key, only its digest', async () => {
      const fixture = await openFixture(setup);
      const key = rawKey();
      await expectOk(
        fixture.apiKeys.register(hashApiKey(key), { kind: 'compliance', complianceId: randomUUID() }),
      );
      const stored = await fixture.inspect.dumpStoredText();
      expect(stored).toContain(hashApiKey(key));
      expect(stored).not.toContain(key);
    });
  });
};
