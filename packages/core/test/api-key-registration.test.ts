import { describe, expect, it } from 'vitest';
import { aManager, createMemoryKit } from './support/memory-kit.js';

describe('kit.apiKeys.register and authenticate read a key alike', () => {
  it('a key registered with surrounding whitespace authenticates as presented without it, and the reverse', async () => {
    const { kit } = createMemoryKit();
    const manager = aManager();
    (await kit.apiKeys.register('  padded-key\t', manager))._unsafeUnwrap();
    expect((await kit.apiKeys.authenticate('padded-key'))._unsafeUnwrap()).toEqual(manager);
    (await kit.apiKeys.register('plain-key', manager))._unsafeUnwrap();
    expect((await kit.apiKeys.authenticate(' plain-key '))._unsafeUnwrap()).toEqual(manager);
  });

  it.each(['', '   ', '\t\n'])('refuses to register the blank key %j', async (blank) => {
    const { kit, adapters } = createMemoryKit();
    expect((await kit.apiKeys.register(blank, aManager()))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      reason: 'An API key must not be blank',
      parameterErrors: { apiKey: ['Required, must not be blank'] },
    });
    expect(adapters.testing.listApiKeyDigests()).toEqual([]);
  });

  it.each([
    ['no managerId', { kind: 'manager' }, { 'principal.managerId': expect.any(Array) }],
    ['an empty managerId', { kind: 'manager', managerId: '' }, { 'principal.managerId': expect.any(Array) }],
    ['an unknown kind', { kind: 'admin', adminId: 'a' }, { 'principal.kind': expect.any(Array) }],
    [
      'a client without its manager',
      { kind: 'client', clientId: 'c' },
      { 'principal.managerId': expect.any(Array) },
    ],
    [
      'an extra property',
      { kind: 'compliance', complianceId: 'o', role: 'x' },
      { 'principal.role': ['Unknown property'] },
    ],
  ])(
    'refuses a malformed principal (%s) as ValidationFailed, storing nothing',
    async (_name, principal, parameterErrors) => {
      const { kit, adapters } = createMemoryKit();
      const outcome = await kit.apiKeys.register('a-key', principal as never);
      expect(outcome._unsafeUnwrapErr()).toEqual({
        type: 'ValidationFailed',
        reason: 'The principal is not valid',
        parameterErrors,
      });
      expect(adapters.testing.listApiKeyDigests()).toEqual([]);
    },
  );
});
