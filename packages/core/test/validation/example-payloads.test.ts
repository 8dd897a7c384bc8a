import { describe, expect, it } from 'vitest';
import {
  exampleEntityPayload,
  exampleEntityPayloadFor,
  exampleIndividualPayload,
  exampleIndividualPayloadFor,
} from '../../src/schemas/example-payloads.js';
import {
  createOnboardingPayloadSchemas,
  defaultOnboardingPayloadSchemas,
} from '../../src/schemas/payload-schemas.js';
import { parseRequest } from '../../src/validation/parse-request.js';
import { withReferenceLists } from '../../src/validation/reference-lists.js';

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

  it('fit the lists of a host: a value the list lacks becomes its first, OTHER with its description', () => {
    const lists = withReferenceLists({
      countryCodes: ['XK'],
      fiatCurrencies: ['CHF'],
      occupations: ['OTHER', 'PILOT'],
      businessSectors: ['OTHER'],
      purposesOfOnboarding: ['OTHER'],
      sourcesOfFunds: ['LOTTERY', 'OTHER'],
      annualRevenueRanges: ['ANY'],
      globalWealthRanges: ['ANY'],
      blockchainNetworks: ['BITCOIN'],
    });
    const schemas = createOnboardingPayloadSchemas(lists);
    const individual = exampleIndividualPayloadFor(lists);
    expect(parseRequest(schemas.individualPayload, individual)._unsafeUnwrap()).toEqual(individual);
    expect(individual.profile).toMatchObject({
      countryCode: 'XK',
      occupation: 'PILOT',
      occupationDescription: null,
      jobBusinessSector: 'OTHER',
      jobBusinessSectorDescription: expect.any(String),
    });
    expect(individual.blockchainWallets).toEqual([]);
    const entity = exampleEntityPayloadFor(lists);
    expect(parseRequest(schemas.entityPayload, entity)._unsafeUnwrap()).toEqual(entity);
  });

  it('each body schema carries the example of its lists', () => {
    const lists = withReferenceLists({ occupations: ['PILOT'] });
    const schemas = createOnboardingPayloadSchemas(lists);
    expect(schemas.individualPayload.meta()?.examples).toEqual([exampleIndividualPayloadFor(lists)]);
    expect(schemas.entityPayload.meta()?.examples).toEqual([exampleEntityPayloadFor(lists)]);
    expect(defaultOnboardingPayloadSchemas.individualPayload.meta()?.examples).toEqual([
      exampleIndividualPayload(),
    ]);
  });
});
