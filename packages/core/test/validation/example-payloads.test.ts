import { describe, expect, it } from 'vitest';
import { exampleEntityPayload, exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/onboarding-payloads.js';
import { parseRequest } from '../../src/validation/parse-request.js';

describe('example payloads', () => {
  it('the individual example is valid and defaults idDocuments to passport.pdf', () => {
    const payload = exampleIndividualPayload();
    const parsed = parseRequest(defaultOnboardingPayloadSchemas.individualPayload, payload);
    expect(parsed._unsafeUnwrap()).toEqual(payload);
    expect(payload.profile.idDocuments).toEqual(['passport.pdf']);
    expect(payload.profile.proofOfAddressDocuments).toEqual([]);
  });

  it('the entity example is valid', () => {
    const payload = exampleEntityPayload();
    const parsed = parseRequest(defaultOnboardingPayloadSchemas.entityPayload, payload);
    expect(parsed._unsafeUnwrap()).toEqual(payload);
  });

  it('places the given document names in their fields', () => {
    const individual = exampleIndividualPayload({ idDocuments: ['id.png'], taxNoticeDocuments: ['tax.pdf'] });
    expect(individual.profile.idDocuments).toEqual(['id.png']);
    expect(individual.sourceOfFunds.taxNoticeDocuments).toEqual(['tax.pdf']);
    const entity = exampleEntityPayload({ turnoverDocuments: ['t.pdf'], directorIdDocuments: ['d.pdf'] });
    expect(entity.company.turnoverDocuments).toEqual(['t.pdf']);
    expect(entity.companyDirectorsAndUbos.directors[0]?.idDocuments).toEqual(['d.pdf']);
    expect(parseRequest(defaultOnboardingPayloadSchemas.entityPayload, entity).isOk()).toBe(true);
  });

  it('returns a fresh object each call', () => {
    const first = exampleIndividualPayload();
    first.profile.idDocuments.push('other.pdf');
    expect(exampleIndividualPayload().profile.idDocuments).toEqual(['passport.pdf']);
  });
});
