import { describe, expect, it } from 'vitest';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/index.js';
import { namesPayloadField, parseOnboardingPath } from '../../src/validation/onboarding-field-path.js';

const { individualPayload, entityPayload } = defaultOnboardingPayloadSchemas;

describe('onboarding field paths (request-resubmission requirements)', () => {
  it('reads paths as parameterErrors writes them', () => {
    expect(parseOnboardingPath('profile.idDocuments[0]')).toEqual(['profile', 'idDocuments', 0]);
    expect(parseOnboardingPath('bankAccounts[12].identifiers.iban')).toEqual([
      'bankAccounts',
      12,
      'identifiers',
      'iban',
    ]);
    for (const malformed of [
      '',
      '.profile',
      'profile.',
      'profile..email',
      'profile[01]',
      'profile[-1]',
      '[0]',
      'profile email',
      'profile.email ',
      'profile["email"]',
      'bankAccounts[0]identifiers',
      'profile.$',
    ]) {
      expect(parseOnboardingPath(malformed), malformed).toBeNull();
    }
  });

  it("accepts a field, a section or a list item of the client's payload type", () => {
    for (const path of [
      'profile',
      'profile.email',
      'profile.idDocuments',
      'profile.idDocuments[0]',
      'sourceOfFunds.taxNoticeDocuments[3]',
      'bankAccounts[0].identifiers.iban',
      'bankAccounts[1].identifiers.routingNumber',
      'bankAccounts[0].thirdPartyBankAccountOwnerDocuments[0]',
      'blockchainWallets[49].address',
    ]) {
      expect(namesPayloadField(individualPayload, path), path).toBe(true);
    }
    for (const path of [
      'company.proofOfIncorporationDocuments[0]',
      'representatives[0].email',
      'companyDirectorsAndUbos.directors[0].idDocuments[1]',
      // A UBO is NATURAL or LEGAL: a field of either is a field of a UBO.
      'companyDirectorsAndUbos.ubos[1].proofOfAddressDocuments',
      'companyDirectorsAndUbos.ubos[1].registryOfDirectorsAndShareholdersDocuments[0]',
      'bankAccounts[0].identifiers.clabe',
    ]) {
      expect(namesPayloadField(entityPayload, path), path).toBe(true);
    }
  });

  it('refuses a path of the other type, an unknown field, an index on a non-list, beyond the list bound', () => {
    for (const path of [
      'company.name',
      'profile.nickname',
      'profile.email[0]',
      'profile.idDocuments.first',
      'profile.idDocuments[0].name',
      'bankAccounts.iban',
      'bankAccounts[50]',
      'bankAccounts[0].identifiers.unknown',
      'profile.__proto__',
      'constructor',
      'toString',
    ]) {
      expect(namesPayloadField(individualPayload, path), path).toBe(false);
    }
    expect(namesPayloadField(entityPayload, 'profile.idDocuments[0]')).toBe(false);
    expect(namesPayloadField(entityPayload, 'companyDirectorsAndUbos.ubos[0].lastName')).toBe(false);
  });
});
