import { describe, expect, it } from 'vitest';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/payload-schemas.js';
import { parseRequest, toJsonPath } from '../../src/validation/parse-request.js';

describe('toJsonPath', () => {
  it('writes object keys with dots and array indexes in brackets', () => {
    expect(toJsonPath(['bankAccounts', 0, 'identifiers', 'iban'])).toBe('bankAccounts[0].identifiers.iban');
    expect(toJsonPath([0, 'name'])).toBe('[0].name');
    expect(toJsonPath([])).toBe('');
  });

  it('quotes keys that are not plain names, so no path is empty, ambiguous or $', () => {
    expect(toJsonPath([''])).toBe('[""]');
    expect(toJsonPath(['profile', 'first name'])).toBe('profile["first name"]');
    expect(toJsonPath(['a.b', 0])).toBe('["a.b"][0]');
    expect(toJsonPath(['$'])).toBe('["$"]');
    expect(toJsonPath(['x', '"'])).toBe('x["\\""]');
  });

  it('unknown properties named like Object.prototype members are reported as own properties', () => {
    const input = JSON.parse(
      '{"valueOf": 1, "toString": "", "__proto__": {"polluted": true}, "constructor": 0}',
    );
    const errors = parseRequest(defaultOnboardingPayloadSchemas.individualPayload, input)._unsafeUnwrapErr()
      .parameterErrors as Record<string, unknown>;
    for (const key of ['valueOf', 'toString', '__proto__', 'constructor']) {
      expect(Object.hasOwn(errors, key)).toBe(true);
      expect(errors[key]).toEqual(['Unknown property']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an unknown property with an empty name is reported at [""]', () => {
    const parsed = parseRequest(defaultOnboardingPayloadSchemas.individualPayload, { '': 0 });
    expect(parsed._unsafeUnwrapErr().parameterErrors).toMatchObject({ '[""]': ['Unknown property'] });
  });
});

describe('parseRequest', () => {
  it.each([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', 'profile'],
    ['a number', 42],
    ['a boolean', true],
    ['nothing', undefined],
  ])('refuses %s as a payload with a ValidationFailed at $', (_, input) => {
    const parsed = parseRequest(
      defaultOnboardingPayloadSchemas.individualPayload,
      input,
      'Invalid individual',
    );
    expect(parsed._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      reason: 'Invalid individual',
      parameterErrors: { $: [input === undefined ? 'Required' : 'Must be an object'] },
    });
  });

  it('reports every missing top-level section of an empty object', () => {
    const parsed = parseRequest(defaultOnboardingPayloadSchemas.entityPayload, {});
    expect(parsed._unsafeUnwrapErr().parameterErrors).toEqual({
      company: ['Required'],
      representatives: ['Required'],
      companyDirectorsAndUbos: ['Required'],
    });
  });
});
