import { defaultReferenceLists, type ReferenceLists } from '../validation/reference-lists.js';
import type { EntityOnboardingPayload, IndividualOnboardingPayload } from './onboarding-payloads.js';

/**
 * Valid onboarding payloads with realistic values, shared by the services and express tests, the
 * demo and the OpenAPI examples. Every call returns a fresh object, so a caller may mutate it.
 * Document arrays are empty unless given, except an individual's `idDocuments` (at least one is
 * required, decisions §7), which defaults to `['passport.pdf']`. The `...For(lists)` forms fit a
 * host's reference lists (the OpenAPI examples of a kit with its own lists).
 */

export type IndividualExampleDocuments = {
  readonly idDocuments?: readonly string[];
  readonly proofOfAddressDocuments?: readonly string[];
  readonly proofOfAmlDocuments?: readonly string[];
  readonly sourceOfFundsDocuments?: readonly string[];
  readonly proofOfTaxResidencyDocuments?: readonly string[];
  readonly taxNoticeDocuments?: readonly string[];
  readonly supportingOccupationDocuments?: readonly string[];
};

/** Company document fields keep their wire names; nested people's fields are prefixed with who they are. */
export type EntityExampleDocuments = {
  readonly turnoverDocuments?: readonly string[];
  readonly lastTaxNoticeDocuments?: readonly string[];
  readonly proofOfIncorporationDocuments?: readonly string[];
  readonly memorandumOfAssociationDocuments?: readonly string[];
  readonly registryOfDirectorsAndShareholdersDocuments?: readonly string[];
  readonly structureChartOfShareholdersDocuments?: readonly string[];
  readonly proofOfAmlDocuments?: readonly string[];
  readonly representativeSupportingDocuments?: readonly string[];
  readonly directorIdDocuments?: readonly string[];
  readonly directorProofOfAddressDocuments?: readonly string[];
  readonly directorProofOfAmlDocuments?: readonly string[];
  readonly naturalUboIdDocuments?: readonly string[];
  readonly naturalUboProofOfAddressDocuments?: readonly string[];
  readonly naturalUboProofOfAmlDocuments?: readonly string[];
  readonly legalUboProofOfIncorporationDocuments?: readonly string[];
  readonly legalUboMemorandumOfAssociationDocuments?: readonly string[];
  readonly legalUboRegistryOfDirectorsAndShareholdersDocuments?: readonly string[];
  readonly legalUboProofOfAmlDocuments?: readonly string[];
};

const copy = (names: readonly string[] | undefined, fallback: readonly string[] = []): string[] => [
  ...(names ?? fallback),
];

/** The example's value when the list has it, else the list's first value other than OTHER. */
const listed = (list: readonly string[], preferred: string): string =>
  list.includes(preferred) ? preferred : (list.find((value) => value !== 'OTHER') ?? list[0] ?? preferred);
/** OTHER needs its description (decisions §7). */
const describedIfOther = (value: string): string | null =>
  value === 'OTHER' ? 'Described by the client' : null;

/** The example wallet's address is an Ethereum one: without that network the example has no wallet. */
const exampleWallets = (lists: ReferenceLists) =>
  lists.blockchainNetworks.includes('ETHEREUM')
    ? [
        {
          label: 'Ledger',
          blockchainNetwork: 'ETHEREUM',
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
        },
      ]
    : [];

const exampleBankAccount = (lists: ReferenceLists, label: string) => ({
  label,
  fiatCurrency: listed(lists.fiatCurrencies, 'EUR'),
  countryCode: listed(lists.countryCodes, 'FR'),
  type: 'PERSONAL' as const,
  identifiers: { format: 'IBAN' as const, iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' },
});

export const exampleIndividualPayload = (
  documents: IndividualExampleDocuments = {},
): IndividualOnboardingPayload => exampleIndividualPayloadFor(defaultReferenceLists, documents);

export const exampleEntityPayload = (documents: EntityExampleDocuments = {}): EntityOnboardingPayload =>
  exampleEntityPayloadFor(defaultReferenceLists, documents);

export const exampleIndividualPayloadFor = (
  lists: ReferenceLists,
  documents: IndividualExampleDocuments = {},
): IndividualOnboardingPayload => {
  const occupation = listed(lists.occupations, 'EMPLOYEE');
  const sector = listed(lists.businessSectors, 'TECHNOLOGY');
  const source = listed(lists.sourcesOfFunds, 'SALARY');
  return {
    profile: {
      firstName: 'Camille',
      lastName: 'Durand',
      email: 'camille.durand@example.com',
      phone: '+33612345678',
      address: '12 rue de Rivoli',
      city: 'Paris',
      postalCode: '75004',
      countryCode: listed(lists.countryCodes, 'FR'),
      occupation,
      occupationDescription: describedIfOther(occupation),
      companyName: 'Atelier Durand',
      jobBusinessSector: sector,
      jobBusinessSectorDescription: describedIfOther(sector),
      purposeOfOnboarding: listed(lists.purposesOfOnboarding, 'INVESTMENT'),
      idDocuments: copy(documents.idDocuments, ['passport.pdf']),
      proofOfAddressDocuments: copy(documents.proofOfAddressDocuments),
      proofOfAmlDocuments: copy(documents.proofOfAmlDocuments),
    },
    sourceOfFunds: {
      sourceOfFunds: source,
      sourceOfFundsDescription: describedIfOther(source),
      annualRevenueRange: listed(lists.annualRevenueRanges, 'FROM_50K_TO_250K'),
      globalWealthRange: listed(lists.globalWealthRanges, 'FROM_250K_TO_1M'),
      sourceOfFundsDocuments: copy(documents.sourceOfFundsDocuments),
      proofOfTaxResidencyDocuments: copy(documents.proofOfTaxResidencyDocuments),
      taxNoticeDocuments: copy(documents.taxNoticeDocuments),
      supportingOccupationDocuments: copy(documents.supportingOccupationDocuments),
    },
    bankAccounts: [exampleBankAccount(lists, 'Main account')],
    blockchainWallets: exampleWallets(lists),
  };
};

export const exampleEntityPayloadFor = (
  lists: ReferenceLists,
  documents: EntityExampleDocuments = {},
): EntityOnboardingPayload => {
  const sector = listed(lists.businessSectors, 'RETAIL');
  return {
    company: {
      name: 'Boulangerie Numérique SAS',
      registrationNumber: '552 100 554',
      registeredAddress: '8 avenue de l’Opéra',
      registeredAddressCity: 'Paris',
      registeredAddressPostalCode: '75001',
      registeredAddressCountryCode: listed(lists.countryCodes, 'FR'),
      placeOfEffectiveBusiness: null,
      businessSector: sector,
      businessSectorDescription: describedIfOther(sector),
      turnover: '1200000 EUR',
      purposeOfOnboarding: listed(lists.purposesOfOnboarding, 'TREASURY_MANAGEMENT'),
      turnoverDocuments: copy(documents.turnoverDocuments),
      lastTaxNoticeDocuments: copy(documents.lastTaxNoticeDocuments),
      proofOfIncorporationDocuments: copy(documents.proofOfIncorporationDocuments),
      memorandumOfAssociationDocuments: copy(documents.memorandumOfAssociationDocuments),
      registryOfDirectorsAndShareholdersDocuments: copy(
        documents.registryOfDirectorsAndShareholdersDocuments,
      ),
      structureChartOfShareholdersDocuments: copy(documents.structureChartOfShareholdersDocuments),
      proofOfAmlDocuments: copy(documents.proofOfAmlDocuments),
    },
    representatives: [
      {
        firstName: 'Hélène',
        lastName: 'Martin',
        email: 'helene.martin@example.com',
        phone: '+33612345678',
        jobTitle: 'Chief Executive Officer',
        supportingDocuments: copy(documents.representativeSupportingDocuments),
        role: 'AUTHORIZED_SIGNATORY',
      },
    ],
    companyDirectorsAndUbos: {
      directors: [
        {
          name: 'Hélène Martin',
          idDocuments: copy(documents.directorIdDocuments),
          proofOfAddressDocuments: copy(documents.directorProofOfAddressDocuments),
          proofOfAmlDocuments: copy(documents.directorProofOfAmlDocuments),
        },
      ],
      ubos: [
        {
          name: 'Hélène Martin',
          typeOfPerson: 'NATURAL',
          idDocuments: copy(documents.naturalUboIdDocuments),
          proofOfAddressDocuments: copy(documents.naturalUboProofOfAddressDocuments),
          proofOfAmlDocuments: copy(documents.naturalUboProofOfAmlDocuments),
        },
        {
          name: 'Martin Holding SARL',
          typeOfPerson: 'LEGAL',
          proofOfIncorporationDocuments: copy(documents.legalUboProofOfIncorporationDocuments),
          memorandumOfAssociationDocuments: copy(documents.legalUboMemorandumOfAssociationDocuments),
          registryOfDirectorsAndShareholdersDocuments: copy(
            documents.legalUboRegistryOfDirectorsAndShareholdersDocuments,
          ),
          proofOfAmlDocuments: copy(documents.legalUboProofOfAmlDocuments),
        },
      ],
    },
    bankAccounts: [exampleBankAccount(lists, 'Operating account')],
    blockchainWallets: [],
  };
};
