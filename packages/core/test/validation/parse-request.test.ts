import { describe, expect, it } from 'vitest';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/onboarding-payloads.js';
import { parseRequest, toJsonPath } from '../../src/validation/parse-request.js';

describe('toJsonPath', () => {
  it('writes object keys with dots and array indexes in brackets', () => {
    expect(toJsonPath(['bankAccounts', 0, 'identifiers', 'iban'])).toBe('bankAccounts[0].identifiers.iban');
    expect(toJsonPath([0, 'name'])).toBe('[0].name');
    expect(toJsonPath([])).toBe('');
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
