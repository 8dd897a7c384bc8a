import { randomUUID } from 'node:crypto';
import type {
  BankAccount,
  BlockchainWallet,
  ClientStatus,
  ClientType,
  CompanyRepresentative,
  StatusHistoryEntry,
  StoredClient,
} from '@onboarding-kit/core';

/** Fixtures shaped like what core stores: valid UUIDs, ISO instants in UTC with milliseconds. */

export type StoredClientOverrides = {
  readonly managerId: string;
  readonly id?: string;
  readonly status?: ClientStatus;
  readonly clientType?: ClientType;
  readonly createdAt?: string;
};

export const bankAccountFixture = (label: string, createdAt: string): BankAccount => ({
  id: randomUUID(),
  label,
  fiatCurrency: 'EUR',
  countryCode: 'FR',
  type: 'PERSONAL',
  identifiers: { format: 'IBAN', iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' },
  thirdPartyBankAccountOwnerName: null,
  thirdPartyBankAccountOwnerAddress: null,
  thirdPartyBankAccountOwnerCity: null,
  thirdPartyBankAccountOwnerPostalCode: null,
  thirdPartyBankAccountOwnerCountryCode: null,
  thirdPartyBankAccountOwnerDocuments: null,
  createdAt,
});

export const thirdPartyBankAccountFixture = (label: string, createdAt: string): BankAccount => ({
  id: randomUUID(),
  label,
  fiatCurrency: 'USD',
  countryCode: 'US',
  type: 'THIRD_PARTY',
  identifiers: { format: 'ROUTING_NUMBER', accountNumber: '000123456789', routingNumber: '021000021' },
  thirdPartyBankAccountOwnerName: 'Jane Roe',
  thirdPartyBankAccountOwnerAddress: '1 Main Street',
  thirdPartyBankAccountOwnerCity: 'New York',
  thirdPartyBankAccountOwnerPostalCode: '10001',
  thirdPartyBankAccountOwnerCountryCode: 'US',
  thirdPartyBankAccountOwnerDocuments: [`${randomUUID()}_owner id.pdf`],
  createdAt,
});

export const blockchainWalletFixture = (label: string, createdAt: string): BlockchainWallet => ({
  id: randomUUID(),
  label,
  blockchainNetwork: 'ETHEREUM',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  createdAt,
});

export const representativeFixture = (
  firstName: string,
  role: CompanyRepresentative['role'],
  createdAt: string,
): CompanyRepresentative => ({
  id: randomUUID(),
  firstName,
  lastName: 'Martin',
  email: `${firstName.toLowerCase()}.martin@example.com`,
  phone: '+33612345678',
  jobTitle: role === 'AUTHORIZED_SIGNATORY' ? 'Chief Executive Officer' : 'Operations',
  supportingDocuments: [`${randomUUID()}_signatory proof.pdf`],
  role,
  createdAt,
  updatedAt: createdAt,
  deletedAt: null,
});

/** A complete stored client of either type, with documents, bank accounts and wallets. */
export const storedClientFixture = (overrides: StoredClientOverrides): StoredClient => {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const clientType = overrides.clientType ?? 'INDIVIDUAL';
  const base: Omit<
    StoredClient,
    | 'company'
    | 'companyRepresentatives'
    | 'companyDirectorsAndUbos'
    | 'individualProfile'
    | 'individualSourceOfFunds'
  > = {
    id: overrides.id ?? randomUUID(),
    managerId: overrides.managerId,
    status: overrides.status ?? 'ONBOARDING_UNDER_REVIEW',
    clientType,
    onboardingResubmissionReason: null,
    bankAccounts: [bankAccountFixture('Main account', createdAt)],
    blockchainWallets: [blockchainWalletFixture('Ledger', createdAt)],
    createdAt,
    updatedAt: createdAt,
    deletedAt: null,
  };
  if (clientType === 'INDIVIDUAL') {
    return {
      ...base,
      company: null,
      companyRepresentatives: null,
      companyDirectorsAndUbos: null,
      individualProfile: {
        firstName: 'Camille',
        lastName: 'Durand',
        email: 'camille.durand@example.com',
        phone: '+33612345678',
        address: '12 rue de Rivoli',
        city: 'Paris',
        postalCode: '75004',
        countryCode: 'FR',
        occupation: 'EMPLOYEE',
        occupationDescription: null,
        companyName: 'Atelier Durand',
        jobBusinessSector: 'TECHNOLOGY',
        jobBusinessSectorDescription: null,
        purposeOfOnboarding: 'INVESTMENT',
        idDocuments: [`${randomUUID()}_passport.pdf`],
        proofOfAddressDocuments: [],
        proofOfAmlDocuments: [],
      },
      individualSourceOfFunds: {
        sourceOfFunds: 'SALARY',
        sourceOfFundsDescription: null,
        annualRevenueRange: 'FROM_50K_TO_250K',
        globalWealthRange: 'FROM_250K_TO_1M',
        sourceOfFundsDocuments: [],
        proofOfTaxResidencyDocuments: [],
        taxNoticeDocuments: [],
        supportingOccupationDocuments: [],
      },
    };
  }
  return {
    ...base,
    company: {
      name: 'Boulangerie Numérique SAS',
      registrationNumber: '552 100 554',
      registeredAddress: '8 avenue de l’Opéra',
      registeredAddressCity: 'Paris',
      registeredAddressPostalCode: '75001',
      registeredAddressCountryCode: 'FR',
      placeOfEffectiveBusiness: null,
      businessSector: 'RETAIL',
      businessSectorDescription: null,
      turnover: '1200000 EUR',
      turnoverDocuments: [],
      lastTaxNoticeDocuments: [],
      purposeOfOnboarding: 'TREASURY_MANAGEMENT',
      proofOfIncorporationDocuments: [`${randomUUID()}_kbis.pdf`],
      memorandumOfAssociationDocuments: [],
      registryOfDirectorsAndShareholdersDocuments: [],
      structureChartOfShareholdersDocuments: [],
      proofOfAmlDocuments: [],
    },
    companyRepresentatives: [
      representativeFixture('Hélène', 'AUTHORIZED_SIGNATORY', createdAt),
      representativeFixture('Paul', 'OPERATOR', createdAt),
    ],
    companyDirectorsAndUbos: {
      directors: [
        { name: 'Hélène Martin', idDocuments: [], proofOfAddressDocuments: [], proofOfAmlDocuments: [] },
      ],
      ubos: [
        {
          name: 'Hélène Martin',
          typeOfPerson: 'NATURAL',
          idDocuments: [],
          proofOfAddressDocuments: [],
          proofOfAmlDocuments: [],
        },
        {
          name: 'Holding Martin SARL',
          typeOfPerson: 'LEGAL',
          proofOfIncorporationDocuments: [],
          memorandumOfAssociationDocuments: [],
          registryOfDirectorsAndShareholdersDocuments: [],
          proofOfAmlDocuments: [],
        },
      ],
    },
    individualProfile: null,
    individualSourceOfFunds: null,
  };
};

export const creationEntryFor = (client: StoredClient): StatusHistoryEntry => ({
  from: null,
  to: client.status,
  reason: null,
  actor: `manager:${client.managerId}`,
  at: client.createdAt,
});

export const transitionEntry = (
  from: ClientStatus,
  to: ClientStatus,
  at: string,
  actor = 'compliance:contract-tests',
  reason: string | null = null,
): StatusHistoryEntry => ({ from, to, reason, actor, at });

/** ISO instant `minutes` after a base, as core writes them (UTC, milliseconds). */
export const instantAfter = (base: Date, minutes: number): string =>
  new Date(base.getTime() + minutes * 60_000).toISOString();
