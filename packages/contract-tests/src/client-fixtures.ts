import { randomUUID } from 'node:crypto';
import {
  type BankAccount,
  type BlockchainWallet,
  type ClientStatus,
  type ClientType,
  type CompanyRepresentative,
  exampleEntityPayload,
  exampleIndividualPayload,
  type StatusHistoryEntry,
} from '@onboarding-kit/core';
import {
  type DocumentRecord,
  documentKeyFor,
  replaceDocumentReferences,
  type StoredClient,
} from '@onboarding-kit/core/adapter';
import { entityOnboardingInformation, individualOnboardingInformation } from '@onboarding-kit/core/schemas';

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
  // A column of its own on PostgreSQL (migration 0015): round-tripped like the others.
  dateOfBirth: '1978-09-14',
  email: `${firstName.toLowerCase()}.martin@example.com`,
  phone: '+33612345678',
  jobTitle: role === 'AUTHORIZED_SIGNATORY' ? 'Chief Executive Officer' : 'Operations',
  supportingDocuments: [`${randomUUID()}_signatory proof.pdf`],
  role,
  createdAt,
  updatedAt: createdAt,
  deletedAt: null,
});

/**
 * A complete stored client of either type, with documents, bank accounts and wallets: core's
 * example payloads turned into onboarding information exactly as the services do it.
 */
export const storedClientFixture = (overrides: StoredClientOverrides): StoredClient => {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const stamp = { newId: randomUUID, at: createdAt };
  const withDocumentKeys = <P>(payload: P): P =>
    replaceDocumentReferences(payload, (filename) => documentKeyFor(randomUUID(), filename));
  const information =
    (overrides.clientType ?? 'INDIVIDUAL') === 'INDIVIDUAL'
      ? individualOnboardingInformation(withDocumentKeys(exampleIndividualPayload()), stamp)
      : entityOnboardingInformation(
          withDocumentKeys(exampleEntityPayload({ proofOfIncorporationDocuments: ['kbis.pdf'] })),
          stamp,
        );
  return {
    id: overrides.id ?? randomUUID(),
    managerId: overrides.managerId,
    status: overrides.status ?? 'ONBOARDING_UNDER_REVIEW',
    ...information,
    onboardingResubmissionReason: null,
    resubmissionRequirements: null,
    screening: null,
    termsAcceptance: null,
    createdAt,
    updatedAt: createdAt,
    deletedAt: null,
    redactedAt: null,
    assignee: null,
  };
};

/** A document record of `client` under a fresh key. */
export const documentRecordFixture = (
  client: StoredClient,
  filename: string,
  size = 1234,
): DocumentRecord => ({
  key: `${randomUUID()}_${filename}`,
  clientId: client.id,
  managerId: client.managerId,
  filename,
  size,
  storedAt: client.createdAt,
});

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
