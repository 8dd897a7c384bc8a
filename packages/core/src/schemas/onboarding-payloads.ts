import { isPossiblePhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';
import { documentFilenameSchema } from '../domain/documents.js';
import {
  isValidAbaRoutingNumber,
  isValidBic,
  isValidClabe,
  isValidIban,
  toElectronicIban,
} from '../validation/account-identifiers.js';
import {
  authorizedSignatoryRule,
  bankAccountOwnerRule,
  blockchainAddressRule,
  crossFieldCheck,
  otherNeedsDescriptionRule,
} from '../validation/cross-field-rules.js';
import { DATE_OF_BIRTH_MESSAGE, isDateOfBirth } from '../validation/date-of-birth.js';
import {
  DIRECTION_OVERRIDE_MESSAGE,
  hasLetter,
  isStorableText,
  keepsItsOrder,
  NAME_WITHOUT_LETTER_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from '../validation/parse-request.js';
import type { ReferenceLists } from '../validation/reference-lists.js';
import { bankAccountTypes, representativeRoles } from './client-response.js';

/** An Australian BSB (bank-state-branch) number: exactly 6 digits, without the usual `123-456` separator. */
export const isValidBsb = (value: string): boolean => /^\d{6}$/.test(value);

/** An Indian IFSC: 4 letters (the bank), a zero, then 6 letters or digits (the branch). */
export const isValidIfsc = (value: string): boolean => /^[A-Z]{4}0[A-Z0-9]{6}$/.test(value);

/** A UK sort code: exactly 6 digits, without the usual `12-34-56` separators (the wire format). */
export const isValidSortCode = (value: string): boolean => /^\d{6}$/.test(value);

/**
 * An international phone number (`+` and the country calling code) whose length is possible for
 * its country. Without a default country, libphonenumber-js only accepts the international form,
 * so a national number such as `0612345678` is refused.
 */
export const isPossibleInternationalPhoneNumber = (value: string): boolean =>
  value.startsWith('+') && isPossiblePhoneNumber(value);

/**
 * Request bodies of the create and resubmit operations (spec 2.7–2.10), strict per decisions §7:
 * unknown properties are refused, a `string` field is required and non-empty, a `string or null`
 * field may be null or absent, strings are at most 1,000 characters and arrays at most 50 items;
 * no string holds a NUL or an unpaired surrogate (validation/storable-text.ts).
 * Built per host because the reference lists are configurable.
 */

export const MAX_STRING_LENGTH = 1000;
export const MAX_ARRAY_ITEMS = 50;

/** "Required" when the field is absent, else what the field must be (zod's default names types only). */
const expected = (what: string) => ({
  error: (issue: { readonly input?: unknown }) =>
    issue.input === undefined ? 'Required' : `Must be ${what}`,
});
/** A union's own issues: the value is not an object, or (reported at the discriminator) no option matches. */
const discriminatedBy = (options: readonly string[]) => ({
  error: (issue: { readonly input?: unknown; readonly code?: string }) =>
    issue.input === undefined
      ? 'Required'
      : issue.code === 'invalid_type'
        ? 'Must be an object'
        : `Must be one of ${options.join(', ')}`,
});
const tooLong = `Must be at most ${MAX_STRING_LENGTH} characters`;
const isBlank = (value: string) => value.trim() === '';

// No check here aborts (`abort: true`): an explicit abort would stop the cross-field checks of every
// enclosing object, and all of a payload's problems are reported at once.
const requiredString = () =>
  z
    .string(expected('a string'))
    .min(1, 'Required, must not be empty')
    .max(MAX_STRING_LENGTH, tooLong)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .refine((value) => value === '' || !isBlank(value), 'Must not be blank');
const nullableString = () =>
  z
    .string({ error: 'Must be a string or null' })
    .max(MAX_STRING_LENGTH, tooLong)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .nullable()
    .optional();

/** A name is reported once: an empty, blank or unstorable one as such, not also as letterless. */
const holdsLetterIfText = (value: string) => isBlank(value) || !isStorableText(value) || hasLetter(value);
/** A name with a letter is checked for what reorders it on screen; any other is reported as what it is. */
const keepsItsOrderIfNamed = (value: string) =>
  isBlank(value) || !isStorableText(value) || !hasLetter(value) || keepsItsOrder(value);
/** A person's or company's name, screened (domain/screening.ts): it must hold a letter. */
const requiredName = () =>
  requiredString()
    .refine(holdsLetterIfText, NAME_WITHOUT_LETTER_MESSAGE)
    .refine(keepsItsOrderIfNamed, DIRECTION_OVERRIDE_MESSAGE);
/** An optional name (a third-party account's owner): null, absent or blank, or with a letter. */
const nullableName = () =>
  z
    .string({ error: 'Must be a string or null' })
    .max(MAX_STRING_LENGTH, tooLong)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .refine(holdsLetterIfText, NAME_WITHOUT_LETTER_MESSAGE)
    .refine(keepsItsOrderIfNamed, DIRECTION_OVERRIDE_MESSAGE)
    .nullable()
    .optional();

/**
 * A person's date of birth, optional (`YYYY-MM-DD`, null or absent): the screening weighs it against
 * a listed person's (evidence, never a filter).
 */
const nullableDateOfBirth = () =>
  z
    .string({ error: 'Must be a string or null' })
    .refine(isDateOfBirth, DATE_OF_BIRTH_MESSAGE)
    .nullable()
    .optional();

/** A required string that must also pass `isValid`; an empty one is only reported as empty. */
const formattedString = (isValid: (value: string) => boolean, message: string) =>
  requiredString().refine((value) => isBlank(value) || isValid(value), message);

const listMessage = (list: readonly string[], what: string) =>
  list.length <= 20 ? `Must be one of ${list.join(', ')}` : `Must be one of the supported ${what}`;
/**
 * A value of a reference list: a `z.enum` of the list, so the OpenAPI document enumerates exactly
 * what validation accepts. Its one message per input is the one a `requiredString` check would give
 * (absent, not a string, empty, too long, unstorable, blank), else the list's own.
 */
const oneOf = (list: readonly string[], what: string, notAString = 'Must be a string') =>
  z.enum(list as [string, ...string[]], {
    error: ({ input }: { readonly input?: unknown }) =>
      input === undefined
        ? 'Required'
        : typeof input !== 'string'
          ? notAString
          : input === ''
            ? 'Required, must not be empty'
            : input.length > MAX_STRING_LENGTH
              ? tooLong
              : !isStorableText(input)
                ? UNSTORABLE_TEXT_MESSAGE
                : isBlank(input)
                  ? 'Must not be blank'
                  : listMessage(list, what),
  });
const nullableOneOf = (list: readonly string[], what: string) =>
  oneOf(list, what, 'Must be a string or null').nullable().optional();

const email = () =>
  z
    .email({
      error: (issue) =>
        issue.input === undefined
          ? 'Required'
          : typeof issue.input === 'string'
            ? 'Must be a valid email address'
            : 'Must be a string',
    })
    .max(MAX_STRING_LENGTH, tooLong);
const phone = () =>
  formattedString(
    isPossibleInternationalPhoneNumber,
    'Must be an international phone number, such as +33612345678',
  );

const iban = () =>
  requiredString()
    .overwrite(toElectronicIban)
    .refine(
      (value) => isBlank(value) || isValidIban(value),
      'Must be a valid IBAN (country format and checksum)',
    );
const bic = () =>
  requiredString()
    .overwrite((value) => value.toUpperCase())
    .refine(
      (value) => isBlank(value) || isValidBic(value),
      'Must be a BIC of 8 or 11 characters, such as BNPAFRPP',
    );

const array = <T extends z.ZodType>(item: T) =>
  z.array(item, expected('an array')).max(MAX_ARRAY_ITEMS, `Must have at most ${MAX_ARRAY_ITEMS} items`);
const filenames = () => array(documentFilenameSchema);
const object = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.strictObject(shape, expected('an object'));

/** The payload schemas of one set of reference lists (`createOnboardingPayloadSchemas` adds their examples). */
export const payloadSchemasOf = (lists: ReferenceLists) => {
  /** One schema per list, reused by every field bound to it (the document names each once). */
  const listValues = {
    countryCode: oneOf(lists.countryCodes, 'ISO 3166-1 alpha-2 country codes'),
    fiatCurrency: oneOf(lists.fiatCurrencies, 'ISO 4217 fiat currency codes'),
    occupation: oneOf(lists.occupations, 'occupations'),
    businessSector: oneOf(lists.businessSectors, 'business sectors'),
    purposeOfOnboarding: oneOf(lists.purposesOfOnboarding, 'purposes of onboarding'),
    sourceOfFunds: oneOf(lists.sourcesOfFunds, 'sources of funds'),
    annualRevenueRange: oneOf(lists.annualRevenueRanges, 'annual revenue ranges'),
    globalWealthRange: oneOf(lists.globalWealthRanges, 'global wealth ranges'),
    blockchainNetwork: oneOf(lists.blockchainNetworks, 'blockchains'),
  };
  const countryCode = () => listValues.countryCode;
  const accountNumber = requiredString;

  const bankAccountIdentifiers = z.discriminatedUnion(
    'format',
    [
      object({ format: z.literal('IBAN'), iban: iban(), bic: bic() }),
      object({ format: z.literal('SWIFT'), accountNumber: accountNumber(), swift: bic() }),
      object({
        format: z.literal('SWIFT_MX'),
        clabe: formattedString(isValidClabe, 'Must be a CLABE of 18 digits with a valid check digit'),
        bic: bic(),
      }),
      object({
        format: z.literal('ROUTING_NUMBER'),
        accountNumber: accountNumber(),
        routingNumber: formattedString(
          isValidAbaRoutingNumber,
          'Must be an ABA routing number of 9 digits with a valid checksum',
        ),
      }),
      object({
        format: z.literal('SORT_CODE'),
        accountNumber: accountNumber(),
        sortCode: formattedString(isValidSortCode, 'Must be a sort code of 6 digits, without separators'),
      }),
      object({
        format: z.literal('IN_INR'),
        accountNumber: accountNumber(),
        ifsc: formattedString(
          isValidIfsc,
          'Must be an IFSC: 4 capital letters, 0, then 6 capital letters or digits',
        ),
      }),
      object({
        format: z.literal('AU'),
        accountNumber: accountNumber(),
        bsb: formattedString(isValidBsb, 'Must be a BSB of 6 digits, without separators'),
      }),
    ],
    discriminatedBy(['IBAN', 'SWIFT', 'SWIFT_MX', 'ROUTING_NUMBER', 'SORT_CODE', 'IN_INR', 'AU']),
  );

  const bankAccount = object({
    label: nullableString(),
    fiatCurrency: listValues.fiatCurrency,
    countryCode: countryCode(),
    type: z.enum(bankAccountTypes, expected(`one of ${bankAccountTypes.join(', ')}`)),
    identifiers: bankAccountIdentifiers,
    thirdPartyBankAccountOwnerName: nullableName(),
    thirdPartyBankAccountOwnerAddress: nullableString(),
    thirdPartyBankAccountOwnerCity: nullableString(),
    thirdPartyBankAccountOwnerPostalCode: nullableString(),
    thirdPartyBankAccountOwnerCountryCode: nullableOneOf(
      lists.countryCodes,
      'ISO 3166-1 alpha-2 country codes',
    ),
    thirdPartyBankAccountOwnerDocuments: filenames().nullable().optional(),
  }).check(crossFieldCheck(bankAccountOwnerRule, 'object'));

  const blockchainWallet = object({
    label: nullableString(),
    blockchainNetwork: listValues.blockchainNetwork,
    address: requiredString(),
  }).check(crossFieldCheck(blockchainAddressRule, 'object'));

  const individualPayload = object({
    profile: object({
      firstName: requiredName(),
      lastName: requiredName(),
      dateOfBirth: nullableDateOfBirth(),
      email: email(),
      phone: phone(),
      address: requiredString(),
      city: requiredString(),
      postalCode: requiredString(),
      countryCode: countryCode(),
      occupation: listValues.occupation,
      occupationDescription: nullableString(),
      companyName: requiredName(),
      jobBusinessSector: listValues.businessSector,
      jobBusinessSectorDescription: nullableString(),
      // The spec has no description field for the purpose: OTHER is accepted as it is.
      purposeOfOnboarding: listValues.purposeOfOnboarding,
      idDocuments: filenames().min(1, 'At least one identity document is required'),
      proofOfAddressDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    })
      .check(crossFieldCheck(otherNeedsDescriptionRule('occupation', 'occupationDescription'), 'object'))
      .check(
        crossFieldCheck(
          otherNeedsDescriptionRule('jobBusinessSector', 'jobBusinessSectorDescription'),
          'object',
        ),
      ),
    sourceOfFunds: object({
      sourceOfFunds: listValues.sourceOfFunds,
      sourceOfFundsDescription: nullableString(),
      annualRevenueRange: listValues.annualRevenueRange,
      globalWealthRange: listValues.globalWealthRange,
      sourceOfFundsDocuments: filenames(),
      proofOfTaxResidencyDocuments: filenames(),
      taxNoticeDocuments: filenames(),
      supportingOccupationDocuments: filenames(),
    }).check(
      crossFieldCheck(otherNeedsDescriptionRule('sourceOfFunds', 'sourceOfFundsDescription'), 'object'),
    ),
    bankAccounts: array(bankAccount),
    blockchainWallets: array(blockchainWallet),
  });

  const director = object({
    name: requiredName(),
    dateOfBirth: nullableDateOfBirth(),
    idDocuments: filenames(),
    proofOfAddressDocuments: filenames(),
    proofOfAmlDocuments: filenames(),
  });
  const ubo = z.discriminatedUnion(
    'typeOfPerson',
    [
      object({
        name: requiredName(),
        typeOfPerson: z.literal('NATURAL'),
        dateOfBirth: nullableDateOfBirth(),
        idDocuments: filenames(),
        proofOfAddressDocuments: filenames(),
        proofOfAmlDocuments: filenames(),
      }),
      object({
        name: requiredName(),
        typeOfPerson: z.literal('LEGAL'),
        proofOfIncorporationDocuments: filenames(),
        memorandumOfAssociationDocuments: filenames(),
        registryOfDirectorsAndShareholdersDocuments: filenames(),
        proofOfAmlDocuments: filenames(),
      }),
    ],
    discriminatedBy(['NATURAL', 'LEGAL']),
  );

  const representative = object({
    firstName: requiredName(),
    lastName: requiredName(),
    dateOfBirth: nullableDateOfBirth(),
    email: email(),
    phone: phone(),
    jobTitle: requiredString(),
    supportingDocuments: filenames(),
    role: z.enum(representativeRoles, expected(`one of ${representativeRoles.join(', ')}`)),
  });

  const entityPayload = object({
    company: object({
      name: requiredName(),
      registrationNumber: requiredString(),
      registeredAddress: requiredString(),
      registeredAddressCity: requiredString(),
      registeredAddressPostalCode: requiredString(),
      registeredAddressCountryCode: countryCode(),
      placeOfEffectiveBusiness: nullableString(),
      businessSector: listValues.businessSector,
      businessSectorDescription: nullableString(),
      turnover: requiredString(),
      // The spec has no description field for the purpose: OTHER is accepted as it is.
      purposeOfOnboarding: listValues.purposeOfOnboarding,
      turnoverDocuments: filenames(),
      lastTaxNoticeDocuments: filenames(),
      proofOfIncorporationDocuments: filenames(),
      memorandumOfAssociationDocuments: filenames(),
      registryOfDirectorsAndShareholdersDocuments: filenames(),
      structureChartOfShareholdersDocuments: filenames(),
      proofOfAmlDocuments: filenames(),
    }).check(
      crossFieldCheck(otherNeedsDescriptionRule('businessSector', 'businessSectorDescription'), 'object'),
    ),
    representatives: array(representative).check(crossFieldCheck(authorizedSignatoryRule, 'array')),
    companyDirectorsAndUbos: object({
      directors: array(director).min(1, 'At least one director is required'),
      ubos: array(ubo),
    }),
    bankAccounts: array(bankAccount).optional(),
    blockchainWallets: array(blockchainWallet).optional(),
  });

  return {
    individualPayload,
    entityPayload,
    bankAccount,
    blockchainWallet,
    bankAccountIdentifiers,
    listValues,
  };
};

export type OnboardingPayloadSchemas = ReturnType<typeof payloadSchemasOf>;

export type IndividualOnboardingPayload = z.infer<OnboardingPayloadSchemas['individualPayload']>;
export type EntityOnboardingPayload = z.infer<OnboardingPayloadSchemas['entityPayload']>;
export type CreateBankAccountPayload = z.infer<OnboardingPayloadSchemas['bankAccount']>;
export type CreateBlockchainWalletPayload = z.infer<OnboardingPayloadSchemas['blockchainWallet']>;
