import { createMemoryAdapters } from '@onboarding-kit/memory';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { type ApiKeyStore, hashApiKey, type StorageUnavailable } from '../src/adapter.js';
import {
  createControllableClock,
  createOnboardingKit,
  type OnboardingKitOptions,
  type Principal,
} from '../src/index.js';
import { aManager } from './support/memory-kit.js';

/**
 * A memory kit whose ApiKeyStore counts its lookups, and whose `revokeElsewhere` removes a key
 * from the store behind the kit's back, as another process (or a hand-edited table) would.
 */
const createCountingKit = (options: OnboardingKitOptions = {}) => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock });
  let lookups = 0;
  const apiKeys: ApiKeyStore = {
    ...adapters.apiKeys,
    findPrincipal: (keyHash) => {
      lookups += 1;
      return adapters.apiKeys.findPrincipal(keyHash);
    },
  };
  const kit = createOnboardingKit({ ...adapters, apiKeys, options });
  return {
    kit,
    clock,
    lookups: () => lookups,
    revokeElsewhere: (key: string) => adapters.apiKeys.revoke(hashApiKey(key, adapters.hashing)),
    registerElsewhere: (key: string, principal: Principal) =>
      adapters.apiKeys.register(hashApiKey(key, adapters.hashing), principal),
  };
};

const refusal = (
  outcome: Awaited<ReturnType<ReturnType<typeof createOnboardingKit>['apiKeys']['authenticate']>>,
) => (outcome.isErr() ? outcome.error.type : 'accepted');

describe('authenticate reuses what the ApiKeyStore answered for a while (apiKeyCacheTtlMs)', () => {
  it('asks the store once per key within the TTL, and again after it', async () => {
    const { kit, clock, lookups } = createCountingKit({ apiKeyCacheTtlMs: 10_000 });
    const manager = aManager();
    (await kit.apiKeys.register('key-a', manager))._unsafeUnwrap();
    for (let i = 0; i < 5; i += 1)
      expect((await kit.apiKeys.authenticate('key-a'))._unsafeUnwrap()).toEqual(manager);
    expect(lookups()).toBe(1);
    clock.advance(10_000);
    expect((await kit.apiKeys.authenticate('key-a'))._unsafeUnwrap()).toEqual(manager);
    expect(lookups()).toBe(2);
  });

  it('a key revoked through the kit is refused at once, though it was just used', async () => {
    const { kit } = createCountingKit({ apiKeyCacheTtlMs: 60_000 });
    (await kit.apiKeys.register('key-r', aManager()))._unsafeUnwrap();
    expect(refusal(await kit.apiKeys.authenticate('key-r'))).toBe('accepted');
    (await kit.apiKeys.revoke(' key-r '))._unsafeUnwrap();
    expect(refusal(await kit.apiKeys.authenticate('key-r'))).toBe('Unauthorized');
  });

  it('a key re-pointed through the kit resolves to its new principal at once', async () => {
    const { kit } = createCountingKit({ apiKeyCacheTtlMs: 60_000 });
    const first = aManager();
    const second = aManager();
    (await kit.apiKeys.register('key-p', first))._unsafeUnwrap();
    expect((await kit.apiKeys.authenticate('key-p'))._unsafeUnwrap()).toEqual(first);
    (await kit.apiKeys.register('key-p', second))._unsafeUnwrap();
    expect((await kit.apiKeys.authenticate('key-p'))._unsafeUnwrap()).toEqual(second);
  });

  it('a key revoked behind the kit works until the TTL has passed, then is refused', async () => {
    const { kit, clock, revokeElsewhere } = createCountingKit({ apiKeyCacheTtlMs: 10_000 });
    (await kit.apiKeys.register('key-e', aManager()))._unsafeUnwrap();
    expect(refusal(await kit.apiKeys.authenticate('key-e'))).toBe('accepted');
    (await revokeElsewhere('key-e'))._unsafeUnwrap();
    clock.advance(9_999);
    expect(refusal(await kit.apiKeys.authenticate('key-e'))).toBe('accepted');
    clock.advance(1);
    expect(refusal(await kit.apiKeys.authenticate('key-e'))).toBe('Unauthorized');
  });

  it('keeps no unknown key: one registered elsewhere works at once', async () => {
    const { kit, registerElsewhere, lookups } = createCountingKit({ apiKeyCacheTtlMs: 60_000 });
    expect(refusal(await kit.apiKeys.authenticate('key-new'))).toBe('Unauthorized');
    expect(refusal(await kit.apiKeys.authenticate('key-new'))).toBe('Unauthorized');
    expect(lookups()).toBe(2);
    (await registerElsewhere('key-new', aManager()))._unsafeUnwrap();
    expect(refusal(await kit.apiKeys.authenticate('key-new'))).toBe('accepted');
  });

  it('holds at most apiKeyCacheMaxEntries keys, dropping the oldest', async () => {
    const { kit, lookups } = createCountingKit({ apiKeyCacheTtlMs: 60_000, apiKeyCacheMaxEntries: 3 });
    const keys = ['k1', 'k2', 'k3', 'k4'];
    for (const key of keys) (await kit.apiKeys.register(key, aManager()))._unsafeUnwrap();
    for (const key of keys) (await kit.apiKeys.authenticate(key))._unsafeUnwrap();
    expect(lookups()).toBe(4);
    // k2, k3, k4 are kept; k1 was evicted when k4 came in.
    for (const key of ['k2', 'k3', 'k4']) (await kit.apiKeys.authenticate(key))._unsafeUnwrap();
    expect(lookups()).toBe(4);
    (await kit.apiKeys.authenticate('k1'))._unsafeUnwrap();
    expect(lookups()).toBe(5);
  });

  it('with apiKeyCacheTtlMs 0 asks the store on every request', async () => {
    const { kit, lookups } = createCountingKit({ apiKeyCacheTtlMs: 0 });
    (await kit.apiKeys.register('key-0', aManager()))._unsafeUnwrap();
    for (let i = 0; i < 3; i += 1) (await kit.apiKeys.authenticate('key-0'))._unsafeUnwrap();
    expect(lookups()).toBe(3);
  });

  it('a lookup still in flight when the key is revoked does not keep it', async () => {
    const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
    const adapters = createMemoryAdapters({ clock });
    const manager = aManager();
    let answerSlowLookup: (() => void) | undefined;
    const apiKeys: ApiKeyStore = {
      ...adapters.apiKeys,
      // The first lookup answers the key's principal, but only once the test lets it.
      findPrincipal: (keyHash) =>
        answerSlowLookup === undefined && keyHash !== ''
          ? ResultAsync.fromSafePromise<Principal | null, StorageUnavailable>(
              new Promise((resolve) => {
                answerSlowLookup = () => resolve(manager);
              }),
            )
          : adapters.apiKeys.findPrincipal(keyHash),
    };
    const kit = createOnboardingKit({ ...adapters, apiKeys, options: { apiKeyCacheTtlMs: 60_000 } });
    (await kit.apiKeys.register('key-race', manager))._unsafeUnwrap();
    const slow = kit.apiKeys.authenticate('key-race');
    (await kit.apiKeys.revoke('key-race'))._unsafeUnwrap();
    answerSlowLookup?.();
    // The slow lookup read the key before the revocation: it answers what it read, but keeps nothing.
    expect((await slow)._unsafeUnwrap()).toEqual(manager);
    expect(refusal(await kit.apiKeys.authenticate('key-race'))).toBe('Unauthorized');
  });

  it('refuses to revoke a blank key', async () => {
    const { kit } = createCountingKit();
    expect((await kit.apiKeys.revoke('  '))._unsafeUnwrapErr().type).toBe('ValidationFailed');
  });
});
