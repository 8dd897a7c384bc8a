import { describe, expect, it } from 'vitest';
import { aManager, createMemoryKit } from './support/memory-kit.js';

describe('registerApiKey and authenticate read a key alike', () => {
  it('a key registered with surrounding whitespace authenticates as presented without it, and the reverse', async () => {
    const { kit } = createMemoryKit();
    const manager = aManager();
    (await kit.registerApiKey('  padded-key\t', manager))._unsafeUnwrap();
    expect((await kit.authenticate('padded-key'))._unsafeUnwrap()).toEqual(manager);
    (await kit.registerApiKey('plain-key', manager))._unsafeUnwrap();
    expect((await kit.authenticate(' plain-key '))._unsafeUnwrap()).toEqual(manager);
  });

  it.each(['', '   ', '\t\n'])('refuses to register the blank key %j', async (blank) => {
    const { kit, adapters } = createMemoryKit();
    expect((await kit.registerApiKey(blank, aManager()))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      reason: 'An API key must not be blank',
      parameterErrors: { apiKey: ['Required, must not be blank'] },
    });
    expect(adapters.testing.listApiKeyDigests()).toEqual([]);
  });
});
