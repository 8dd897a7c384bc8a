import { z } from 'zod';
import { defaultReferenceLists, type ReferenceLists } from '../validation/reference-lists.js';
import { bankAccountTypes, representativeRoles } from './client-response.js';

/**
 * Request bodies of the create and resubmit operations (spec 2.7–2.10), strict per decisions §7:
 * unknown properties are refused, a `string` field is required and non-empty, a `string or null`
 * field may be null or absent, strings are at most 1,000 characters and arrays at most 50 items.
 * Built per host because the reference lists are configurable.
 */

export const MAX_STRING_LENGTH = 1000;
export const MAX_ARRAY_ITEMS = 50;

const requiredString = () => z.string().min(1, 'Required, must not be empty').max(MAX_STRING_LENGTH);
const nullableString = () => z.string().max(MAX_STRING_LENGTH).nullable().optional();
const oneOf = (list: readonly string[], what: string) =>
  requiredString().refine((value) => list.includes(value), {
    message: `Must be one of the supported ${what}`,
  });
const filenames = () => z.array(z.string()).max(MAX_ARRAY_ITEMS);

export const createOnboardingPayloadSchemas = (lists: ReferenceLists = defaultReferenceLists) => {
  const bankAccountIdentifiers = z.discriminatedUnion('format', [
    z.strictObject({ format: z.literal('IBAN'), iban: requiredString(), bic: requiredString() }),
    z.strictObject({ format: z.literal('SWIFT'), accountNumber: requiredString(), swift: requiredString() }),
    z.strictObject({ format: z.literal('SWIFT_MX'), clabe: requiredString(), bic: requiredString() }),
    z.strictObject({
      format: z.literal('ROUTING_NUMBER'),
      accountNumber: requiredString(),
      routingNumber: requiredString(),
    }),
    z.strictObject({
      format: z.literal('SORT_CODE'),
      accountNumber: requiredString(),
      sortCode: requiredString(),
    }),
    z.strictObject({ format: z.literal('IN_INR'), accountNumber: requiredString(), ifsc: requiredString() }),
    z.strictObject({ format: z.literal('AU'), accountNumber: requiredString(), bsb: requiredString() }),
  ]);

  const bankAccount = z.strictObject({
    label: nullableString(),
    fiatCurrency: oneOf(lists.fiatCurrencies, 'fiat currencies'),
    countryCode: oneOf(lists.countryCodes, 'country codes'),
    type: z.enum(bankAccountTypes),
    identifiers: bankAccountIdentifiers,
    thirdPartyBankAccountOwnerName: nullableString(),
    thirdPartyBankAccountOwnerAddress: nullableString(),
    thirdPartyBankAccountOwnerCity: nullableString(),
    thirdPartyBankAccountOwnerPostalCode: nullableString(),
    thirdPartyBankAccountOwnerCountryCode: nullableString(),
    thirdPartyBankAccountOwnerDocuments: filenames().nullable().optional(),
  });

  const blockchainWallet = z.strictObject({
    label: nullableString(),
    blockchainNetwork: oneOf(lists.blockchainNetworks, 'blockchains'),
    address: requiredString(),
  });

  const individualPayload = z.strictObject({
    profile: z.strictObject({
      firstName: requiredString(),
      lastName: requiredString(),
      email: requiredString(),
      phone: requiredString(),
      address: requiredString(),
      city: requiredString(),
      postalCode: requiredString(),
      countryCode: oneOf(lists.countryCodes, 'country codes'),
      occupation: oneOf(lists.occupations, 'occupations'),
      occupationDescription: nullableString(),
      companyName: requiredString(),
      jobBusinessSector: oneOf(lists.businessSectors, 'business sectors'),
      jobBusinessSectorDescription: nullableString(),
      purposeOfOnboarding: oneOf(lists.purposesOfOnboarding, 'purposes of onboarding'),
      idDocuments: filenames(),
      proofOfAddressDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    }),
    sourceOfFunds: z.strictObject({
      sourceOfFunds: oneOf(lists.sourcesOfFunds, 'sources of funds'),
      sourceOfFundsDescription: nullableString(),
      annualRevenueRange: oneOf(lists.annualRevenueRanges, 'annual revenue ranges'),
      globalWealthRange: oneOf(lists.globalWealthRanges, 'global wealth ranges'),
      sourceOfFundsDocuments: filenames(),
      proofOfTaxResidencyDocuments: filenames(),
      taxNoticeDocuments: filenames(),
      supportingOccupationDocuments: filenames(),
    }),
    bankAccounts: z.array(bankAccount).max(MAX_ARRAY_ITEMS),
    blockchainWallets: z.array(blockchainWallet).max(MAX_ARRAY_ITEMS),
  });

  const director = z.strictObject({
    name: requiredString(),
    idDocuments: filenames(),
    proofOfAddressDocuments: filenames(),
    proofOfAmlDocuments: filenames(),
  });
  const ubo = z.discriminatedUnion('typeOfPerson', [
    z.strictObject({
      name: requiredString(),
      typeOfPerson: z.literal('NATURAL'),
      idDocuments: filenames(),
      proofOfAddressDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    }),
    z.strictObject({
      name: requiredString(),
      typeOfPerson: z.literal('LEGAL'),
      proofOfIncorporationDocuments: filenames(),
      memorandumOfAssociationDocuments: filenames(),
      registryOfDirectorsAndShareholdersDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    }),
  ]);

  const entityPayload = z.strictObject({
    company: z.strictObject({
      name: requiredString(),
      registrationNumber: requiredString(),
      registeredAddress: requiredString(),
      registeredAddressCity: requiredString(),
      registeredAddressPostalCode: requiredString(),
      registeredAddressCountryCode: oneOf(lists.countryCodes, 'country codes'),
      placeOfEffectiveBusiness: nullableString(),
      businessSector: oneOf(lists.businessSectors, 'business sectors'),
      businessSectorDescription: nullableString(),
      turnover: requiredString(),
      purposeOfOnboarding: oneOf(lists.purposesOfOnboarding, 'purposes of onboarding'),
      turnoverDocuments: filenames(),
      lastTaxNoticeDocuments: filenames(),
      proofOfIncorporationDocuments: filenames(),
      memorandumOfAssociationDocuments: filenames(),
      registryOfDirectorsAndShareholdersDocuments: filenames(),
      structureChartOfShareholdersDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    }),
    representatives: z
      .array(
        z.strictObject({
          firstName: requiredString(),
          lastName: requiredString(),
          email: requiredString(),
          phone: requiredString(),
          jobTitle: requiredString(),
          supportingDocuments: filenames(),
          role: z.enum(representativeRoles),
        }),
      )
      .max(MAX_ARRAY_ITEMS),
    companyDirectorsAndUbos: z.strictObject({
      directors: z.array(director).max(MAX_ARRAY_ITEMS),
      ubos: z.array(ubo).max(MAX_ARRAY_ITEMS),
    }),
    bankAccounts: z.array(bankAccount).max(MAX_ARRAY_ITEMS).optional(),
    blockchainWallets: z.array(blockchainWallet).max(MAX_ARRAY_ITEMS).optional(),
  });

  return { individualPayload, entityPayload, bankAccount, blockchainWallet, bankAccountIdentifiers };
};

export type OnboardingPayloadSchemas = ReturnType<typeof createOnboardingPayloadSchemas>;
/** The schemas with the default reference lists: used for the OpenAPI document and the types. */
export const defaultOnboardingPayloadSchemas: OnboardingPayloadSchemas = createOnboardingPayloadSchemas();

export type IndividualOnboardingPayload = z.infer<OnboardingPayloadSchemas['individualPayload']>;
export type EntityOnboardingPayload = z.infer<OnboardingPayloadSchemas['entityPayload']>;
export type CreateBankAccountPayload = z.infer<OnboardingPayloadSchemas['bankAccount']>;
export type CreateBlockchainWalletPayload = z.infer<OnboardingPayloadSchemas['blockchainWallet']>;
