import type {
  BankAccount,
  BlockchainWallet,
  CompanyRepresentative,
  StatusHistoryEntry,
} from '../schemas/client-response.js';
import type {
  CreateBankAccountPayload,
  CreateBlockchainWalletPayload,
  EntityOnboardingPayload,
  IndividualOnboardingPayload,
} from '../schemas/onboarding-payloads.js';
import type { StoredClient } from './stored-client.js';

/**
 * Turns a validated onboarding payload (its document filenames already replaced by document keys)
 * into the onboarding information a Client carries. Absent nullable fields become null.
 */

type Stamp = { readonly newId: () => string; readonly at: string };

/** The part of a Client that a create or a resubmission (re)writes entirely. */
export type OnboardingInformation = Pick<
  StoredClient,
  | 'clientType'
  | 'company'
  | 'companyRepresentatives'
  | 'companyDirectorsAndUbos'
  | 'individualProfile'
  | 'individualSourceOfFunds'
  | 'bankAccounts'
  | 'blockchainWallets'
>;

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

const toBankAccount = (account: CreateBankAccountPayload, stamp: Stamp): BankAccount => ({
  id: stamp.newId(),
  label: orNull(account.label),
  fiatCurrency: account.fiatCurrency,
  countryCode: account.countryCode,
  type: account.type,
  identifiers: account.identifiers,
  thirdPartyBankAccountOwnerName: orNull(account.thirdPartyBankAccountOwnerName),
  thirdPartyBankAccountOwnerAddress: orNull(account.thirdPartyBankAccountOwnerAddress),
  thirdPartyBankAccountOwnerCity: orNull(account.thirdPartyBankAccountOwnerCity),
  thirdPartyBankAccountOwnerPostalCode: orNull(account.thirdPartyBankAccountOwnerPostalCode),
  thirdPartyBankAccountOwnerCountryCode: orNull(account.thirdPartyBankAccountOwnerCountryCode),
  thirdPartyBankAccountOwnerDocuments: orNull(account.thirdPartyBankAccountOwnerDocuments),
  createdAt: stamp.at,
});

const toBlockchainWallet = (wallet: CreateBlockchainWalletPayload, stamp: Stamp): BlockchainWallet => ({
  id: stamp.newId(),
  label: orNull(wallet.label),
  blockchainNetwork: wallet.blockchainNetwork,
  address: wallet.address,
  createdAt: stamp.at,
});

export const individualOnboardingInformation = (
  payload: IndividualOnboardingPayload,
  stamp: Stamp,
): OnboardingInformation => {
  const { profile, sourceOfFunds } = payload;
  return {
    clientType: 'INDIVIDUAL',
    company: null,
    companyRepresentatives: null,
    companyDirectorsAndUbos: null,
    individualProfile: {
      ...profile,
      occupationDescription: orNull(profile.occupationDescription),
      jobBusinessSectorDescription: orNull(profile.jobBusinessSectorDescription),
    },
    individualSourceOfFunds: {
      ...sourceOfFunds,
      sourceOfFundsDescription: orNull(sourceOfFunds.sourceOfFundsDescription),
    },
    bankAccounts: payload.bankAccounts.map((account) => toBankAccount(account, stamp)),
    blockchainWallets: payload.blockchainWallets.map((wallet) => toBlockchainWallet(wallet, stamp)),
  };
};

export const entityOnboardingInformation = (
  payload: EntityOnboardingPayload,
  stamp: Stamp,
): OnboardingInformation => {
  const { company } = payload;
  return {
    clientType: 'ENTITY',
    company: {
      ...company,
      placeOfEffectiveBusiness: orNull(company.placeOfEffectiveBusiness),
      businessSectorDescription: orNull(company.businessSectorDescription),
    },
    companyRepresentatives: payload.representatives.map(
      (representative): CompanyRepresentative => ({
        id: stamp.newId(),
        ...representative,
        createdAt: stamp.at,
        updatedAt: stamp.at,
        deletedAt: null,
      }),
    ),
    companyDirectorsAndUbos: payload.companyDirectorsAndUbos,
    individualProfile: null,
    individualSourceOfFunds: null,
    bankAccounts: (payload.bankAccounts ?? []).map((account) => toBankAccount(account, stamp)),
    blockchainWallets: (payload.blockchainWallets ?? []).map((wallet) => toBlockchainWallet(wallet, stamp)),
  };
};

export const historyEntry = (
  from: StatusHistoryEntry['from'],
  to: StatusHistoryEntry['to'],
  actor: string,
  at: string,
  reason: string | null = null,
): StatusHistoryEntry => ({ from, to, reason, actor, at });
