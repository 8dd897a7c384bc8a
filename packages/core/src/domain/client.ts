import { match } from 'ts-pattern';
import type {
  BankAccount,
  BlockchainWallet,
  Client,
  ClientRequirement,
  CompanyRepresentative,
  Screening,
  StatusHistoryEntry,
} from '../schemas/client-response.js';
import type {
  CreateBankAccountPayload,
  CreateBlockchainWalletPayload,
  EntityOnboardingPayload,
  IndividualOnboardingPayload,
} from '../schemas/onboarding-payloads.js';

// The client as the kit holds it: its onboarding information (from a create or a resubmission),
// its status history, and the answer a caller gets, with the requirements that still keep it from
// approval computed at every answer.

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
      dateOfBirth: orNull(profile.dateOfBirth),
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
        dateOfBirth: orNull(representative.dateOfBirth),
        createdAt: stamp.at,
        updatedAt: stamp.at,
        deletedAt: null,
      }),
    ),
    companyDirectorsAndUbos: {
      directors: payload.companyDirectorsAndUbos.directors.map((director) => ({
        ...director,
        dateOfBirth: orNull(director.dateOfBirth),
      })),
      ubos: payload.companyDirectorsAndUbos.ubos.map((ubo) =>
        ubo.typeOfPerson === 'NATURAL' ? { ...ubo, dateOfBirth: orNull(ubo.dateOfBirth) } : ubo,
      ),
    },
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

const requirement = (
  code: ClientRequirement['code'],
  message: string,
  about: { field?: string; hitId?: string } = {},
): ClientRequirement => ({ code, field: about.field ?? null, hitId: about.hitId ?? null, message });

/**
 * What the screening holds back from an approval or the signed terms, one entry per reason: the same rule as
 * `screeningAllowsApproval` (no entry exactly when it allows), item by item.
 */
export const screeningRequirements = (screening: Screening | null): ClientRequirement[] => {
  if (screening === null) return [];
  return match(screening.status)
    .with('PENDING', () => [requirement('SCREENING_PENDING', 'The screening of the client has not finished')])
    .with('ERROR', () => [
      requirement('SCREENING_FAILED', 'The screening of the client failed; it is retried'),
    ])
    .with('CLEAR', 'POSSIBLE_MATCH', () =>
      screening.hits.flatMap((hit) =>
        match(hit.resolution?.decision)
          .with('DISMISSED', () => [])
          .with('CONFIRMED', () => [
            requirement('SCREENING_HIT_CONFIRMED', 'A screening hit is confirmed: the client is on a list', {
              field: hit.field,
              hitId: hit.id,
            }),
          ])
          .with(undefined, () => [
            requirement('SCREENING_HIT_UNRESOLVED', 'A screening hit awaits a decision', {
              field: hit.field,
              hitId: hit.id,
            }),
          ])
          .exhaustive(),
      ),
    )
    .exhaustive();
};

/**
 * The client's `requirements`: what stands in the way of its next step now, computed from the
 * client alone, so the answer and the refusal of a review move never disagree.
 */
export const requirementsOf = (client: Omit<Client, 'requirements'>): ClientRequirement[] =>
  match(client.status)
    .with('ONBOARDING_UNDER_REVIEW', () => screeningRequirements(client.screening))
    // The signed terms are refused on the same screening rule as the approval.
    .with('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', () => [
      requirement('TERMS_NOT_SIGNED', 'The client has not signed the terms and conditions'),
      ...screeningRequirements(client.screening),
    ])
    .with('RESUBMISSION_REQUIRED', () => {
      const asked = client.resubmissionRequirements ?? [];
      const message = 'The manager has not resubmitted the onboarding';
      return asked.length === 0
        ? [requirement('RESUBMISSION_OUTSTANDING', message)]
        : asked.map((item) => requirement('RESUBMISSION_OUTSTANDING', message, { field: item.field }));
    })
    .with('DELETED', () => [requirement('CLIENT_DELETED', 'The client is deleted')])
    .with('VERIFIED', 'ONBOARDING_IN_PROGRESS', () => [])
    .exhaustive();

/**
 * A client as the repositories hold it: the wire Client plus the manager that owns it, without the
 * requirements, which the kit computes from the rest at every answer.
 */
export type StoredClient = Omit<Client, 'requirements'> & { readonly managerId: string };

export const toClientResponse = ({ managerId: _managerId, ...client }: StoredClient): Client => ({
  ...client,
  requirements: requirementsOf(client),
});
