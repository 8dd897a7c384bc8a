import { describe, expect, it } from 'vitest';
import { exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import { isValidBsb, isValidIfsc, isValidSortCode } from '../../src/schemas/onboarding-payloads.js';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/payload-schemas.js';
import {
  clabeCheckDigit,
  isValidAbaRoutingNumber,
  isValidBic,
  isValidClabe,
  isValidIban,
  toElectronicIban,
} from '../../src/validation/account-identifiers.js';
import { parameterErrorsOf, parsedValueOf } from './parameter-errors-of.js';

describe('bank identifier checks', () => {
  it('IBAN: country format and mod-97 checksum, on the electronic format', () => {
    expect(isValidIban('FR7630006000011234567890189')).toBe(true);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
    expect(isValidIban('GB82WEST12345698765433')).toBe(false);
    expect(isValidIban('FR763000600001123456789018')).toBe(false);
    expect(isValidIban('XX7630006000011234567890189')).toBe(false);
    expect(toElectronicIban('fr76 3000 6000 0112 3456 7890 189')).toBe('FR7630006000011234567890189');
  });

  it('BIC: 8 or 11 upper-case characters with a known country', () => {
    expect(isValidBic('BNPAFRPP')).toBe(true);
    expect(isValidBic('DEUTDEFF500')).toBe(true);
    expect(isValidBic('DEUTDEFF50')).toBe(false);
    expect(isValidBic('DEUTZZFF')).toBe(false);
    expect(isValidBic('bnpafrpp')).toBe(false);
  });

  it('ABA routing number: 9 digits with the 3-7-1 checksum', () => {
    expect(isValidAbaRoutingNumber('021000021')).toBe(true);
    expect(isValidAbaRoutingNumber('011000015')).toBe(true);
    expect(isValidAbaRoutingNumber('021000022')).toBe(false);
    expect(isValidAbaRoutingNumber('02100002')).toBe(false);
    expect(isValidAbaRoutingNumber('02100002a')).toBe(false);
  });

  it('CLABE: 18 digits with the 3-7-1 mod 10 check digit', () => {
    expect(clabeCheckDigit('03218000011835971')).toBe(9);
    expect(isValidClabe('032180000118359719')).toBe(true);
    expect(isValidClabe('002010077777777771')).toBe(true);
    expect(isValidClabe('032180000118359718')).toBe(false);
    expect(isValidClabe('03218000011835971')).toBe(false);
  });

  it('sort code and BSB: 6 digits without separators; IFSC: bank, 0, branch', () => {
    expect(isValidSortCode('601613')).toBe(true);
    expect(isValidSortCode('60-16-13')).toBe(false);
    expect(isValidBsb('062000')).toBe(true);
    expect(isValidBsb('062-000')).toBe(false);
    expect(isValidIfsc('SBIN0000300')).toBe(true);
    expect(isValidIfsc('SBIN1000300')).toBe(false);
    expect(isValidIfsc('sbin0000300')).toBe(false);
  });
});

const schema = defaultOnboardingPayloadSchemas.individualPayload;
const withIdentifiers = (identifiers: Record<string, unknown>) => {
  const payload = exampleIndividualPayload();
  return { ...payload, bankAccounts: [{ ...payload.bankAccounts[0], identifiers }] };
};
const at = (field: string) => `bankAccounts[0].identifiers.${field}`;

describe('bank account identifiers in a payload', () => {
  it.each([
    { format: 'IBAN', iban: 'GB82WEST12345698765432', bic: 'DEUTDEFF500' },
    { format: 'SWIFT', accountNumber: '000123456789', swift: 'CHASUS33' },
    { format: 'SWIFT_MX', clabe: '032180000118359719', bic: 'BNMXMXMM' },
    { format: 'ROUTING_NUMBER', accountNumber: '000123456789', routingNumber: '021000021' },
    { format: 'SORT_CODE', accountNumber: '31926819', sortCode: '601613' },
    { format: 'IN_INR', accountNumber: '00000012345678', ifsc: 'SBIN0000300' },
    { format: 'AU', accountNumber: '12345678', bsb: '062000' },
  ])('accepts a valid $format account', (identifiers) => {
    expect(parsedValueOf(schema, withIdentifiers(identifiers)).bankAccounts[0]?.identifiers).toEqual(
      identifiers,
    );
  });

  it('accepts an IBAN and a BIC in print format and stores them normalized', () => {
    const parsed = parsedValueOf(
      schema,
      withIdentifiers({ format: 'IBAN', iban: 'fr76 3000 6000 0112 3456 7890 189', bic: 'bnpafrpp' }),
    );
    expect(parsed.bankAccounts[0]?.identifiers).toEqual({
      format: 'IBAN',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
    });
  });

  it.each([
    [{ format: 'IBAN', iban: 'FR7630006000011234567890180', bic: 'BNPAFRPP' }, 'iban', 'valid IBAN'],
    [{ format: 'IBAN', iban: 'FR7630006000011234567890189', bic: 'BNPA' }, 'bic', 'BIC'],
    [{ format: 'SWIFT', accountNumber: '000123456789', swift: 'NOT A BIC' }, 'swift', 'BIC'],
    [{ format: 'SWIFT', accountNumber: '', swift: 'CHASUS33' }, 'accountNumber', 'must not be empty'],
    [{ format: 'SWIFT_MX', clabe: '032180000118359718', bic: 'BNMXMXMM' }, 'clabe', 'CLABE'],
    [{ format: 'SWIFT_MX', clabe: '032180000118359719', bic: 'BNMXZZMM' }, 'bic', 'BIC'],
    [{ format: 'ROUTING_NUMBER', accountNumber: '1', routingNumber: '021000022' }, 'routingNumber', 'ABA'],
    [{ format: 'SORT_CODE', accountNumber: '1', sortCode: '60-16-13' }, 'sortCode', '6 digits'],
    [{ format: 'IN_INR', accountNumber: '1', ifsc: 'SBIN1000300' }, 'ifsc', 'IFSC'],
    [{ format: 'AU', accountNumber: '1', bsb: '06200' }, 'bsb', '6 digits'],
  ])('refuses %j at identifiers.%s', (identifiers, field, message) => {
    const errors = parameterErrorsOf(schema, withIdentifiers(identifiers));
    expect(Object.keys(errors)).toEqual([at(field)]);
    expect(errors[at(field)]?.join(' ')).toContain(message);
  });

  it('reports an empty identifier once, as empty', () => {
    expect(parameterErrorsOf(schema, withIdentifiers({ format: 'AU', accountNumber: '1', bsb: '' }))).toEqual(
      {
        [at('bsb')]: ['Required, must not be empty'],
      },
    );
  });

  it('refuses an unknown format at identifiers.format and a field of another format as unknown', () => {
    expect(parameterErrorsOf(schema, withIdentifiers({ format: 'BBAN', iban: 'x' }))).toEqual({
      [at('format')]: ['Must be one of IBAN, SWIFT, SWIFT_MX, ROUTING_NUMBER, SORT_CODE, IN_INR, AU'],
    });
    expect(
      parameterErrorsOf(
        schema,
        withIdentifiers({ format: 'AU', accountNumber: '1', bsb: '062000', iban: 'x' }),
      ),
    ).toEqual({ [at('iban')]: ['Unknown property'] });
  });
});
