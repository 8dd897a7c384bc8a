import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { StoredClient } from './domain/client.js';
import { type StorageUnavailable, storageUnavailable } from './errors.js';
import { systemClock } from './kit-context.js';
import type { OnboardingKitPorts } from './onboarding-kit-ports.js';
import { type Principal, principalKey } from './principal.js';
import type { StatusHistoryEntry } from './schemas/client-response.js';
import type { PresetFee } from './schemas/preset-fee.js';
import { hashApiKey } from './services/api-key-service.js';

/**
 * The demo's data, written against the kit's ports only, so it seeds any adapters (memory,
 * PostgreSQL): the fixed identities and API keys of decisions §8, client a1 and preset fees. Here,
 * beside the example payloads, because every host, demo and test that uses it already imports core
 * (docs/decisions.md, "The demo").
 */

type DemoIdentity<P extends Principal> = { readonly apiKey: string; readonly principal: P };

const managerAId = '11111111-1111-4111-8111-111111111111';
const managerBId = '22222222-2222-4222-8222-222222222222';
const clientA1Id = 'a1a1a1a1-0000-4000-8000-0000000000a1';
const complianceOfficerId = 'c0c0c0c0-0000-4000-8000-0000000000c0';

/** The demo's fixed principals and API keys (decisions §8), printed by the demo at start. */
export const demoIdentities = {
  managerA: { apiKey: 'demo-manager-a-key', principal: { kind: 'manager', managerId: managerAId } },
  managerB: { apiKey: 'demo-manager-b-key', principal: { kind: 'manager', managerId: managerBId } },
  clientA1: {
    apiKey: 'demo-client-a1-key',
    principal: { kind: 'client', clientId: clientA1Id, managerId: managerAId },
  },
  compliance: {
    apiKey: 'demo-compliance-key',
    principal: { kind: 'compliance', complianceId: complianceOfficerId },
  },
} as const satisfies Record<string, DemoIdentity<Principal>>;

export type DemoSeedPorts = Pick<
  OnboardingKitPorts,
  'clients' | 'presetFees' | 'apiKeys' | 'unitOfWork' | 'clock'
>;

/** Client a1 of manager A, under review, with realistic data and no documents. */
export const demoClientA1 = (createdAt: string): StoredClient => ({
  id: clientA1Id,
  managerId: managerAId,
  status: 'ONBOARDING_UNDER_REVIEW',
  clientType: 'INDIVIDUAL',
  company: null,
  companyRepresentatives: null,
  companyDirectorsAndUbos: null,
  individualProfile: {
    firstName: 'Amélie',
    lastName: 'Laurent',
    dateOfBirth: null,
    email: 'amelie.laurent@example.com',
    phone: '+33612345678',
    address: '27 quai des Chartrons',
    city: 'Bordeaux',
    postalCode: '33000',
    countryCode: 'FR',
    occupation: 'SELF_EMPLOYED',
    occupationDescription: null,
    companyName: 'Laurent Conseil',
    jobBusinessSector: 'CONSULTING',
    jobBusinessSectorDescription: null,
    purposeOfOnboarding: 'PAYMENTS',
    idDocuments: [],
    proofOfAddressDocuments: [],
    proofOfAmlDocuments: [],
  },
  individualSourceOfFunds: {
    sourceOfFunds: 'BUSINESS_INCOME',
    sourceOfFundsDescription: null,
    annualRevenueRange: 'FROM_50K_TO_250K',
    globalWealthRange: 'FROM_250K_TO_1M',
    sourceOfFundsDocuments: [],
    proofOfTaxResidencyDocuments: [],
    taxNoticeDocuments: [],
    supportingOccupationDocuments: [],
  },
  onboardingResubmissionReason: null,
  resubmissionRequirements: null,
  termsAcceptance: null,
  screening: null,
  bankAccounts: [
    {
      id: 'a1a1a1a1-0000-4000-8000-0000000000b1',
      label: 'Compte courant',
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
    },
  ],
  blockchainWallets: [
    {
      id: 'a1a1a1a1-0000-4000-8000-0000000000e1',
      label: 'Hardware wallet',
      blockchainNetwork: 'ETHEREUM',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      createdAt,
    },
  ],
  createdAt,
  updatedAt: createdAt,
  deletedAt: null,
  redactedAt: null,
  assignee: null,
});

type DemoFeeTemplate = Omit<PresetFee, 'id' | 'createdAt'>;

/** Both configuration types, both fee groups, both directions; tiers strictly increasing by `to`. */
const demoFeeTemplates = (scale: number): DemoFeeTemplate[] => [
  {
    feeDirection: 'ONRAMP',
    fiatFeeGroup: 'USD',
    blockchainFeeGroup: 'USD_STABLECOIN',
    configuration: { type: 'FLAT', fee: 0.5 * scale },
  },
  {
    feeDirection: 'OFFRAMP',
    fiatFeeGroup: 'G10',
    blockchainFeeGroup: 'EUR_STABLECOIN',
    configuration: { type: 'FLAT', fee: 0.75 * scale },
  },
  {
    feeDirection: 'ONRAMP',
    fiatFeeGroup: 'G10',
    blockchainFeeGroup: 'EUR_STABLECOIN',
    configuration: {
      type: 'MONTHLY_VOLUME',
      intermediaryLimits: [
        { to: 10_000, fee: 1 * scale },
        { to: 100_000, fee: 0.5 * scale },
      ],
      upperLimitFee: 0.25 * scale,
    },
  },
  {
    feeDirection: 'OFFRAMP',
    fiatFeeGroup: 'USD',
    blockchainFeeGroup: 'USD_STABLECOIN',
    configuration: {
      type: 'MONTHLY_VOLUME',
      intermediaryLimits: [
        { to: 50_000, fee: 0.9 * scale },
        { to: 250_000, fee: 0.6 * scale },
        { to: 1_000_000, fee: 0.35 * scale },
      ],
      upperLimitFee: 0.2 * scale,
    },
  },
];

/** Fixed ids, so a second seeding finds the fees of the first. */
const demoFeeId = (manager: 'a' | 'b', index: number) =>
  `fee0000${manager}-0000-4000-8000-00000000000${index + 1}`;

const demoFees = (now: Date) =>
  (['a', 'b'] as const).flatMap((manager) =>
    demoFeeTemplates(manager === 'a' ? 1 : 1.2).map(
      (template, index): { managerId: string; fee: PresetFee } => ({
        managerId: manager === 'a' ? managerAId : managerBId,
        fee: {
          ...template,
          id: demoFeeId(manager, index),
          // Distinct instants, an hour apart, the first template being the newest.
          createdAt: new Date(now.getTime() - (index + 1) * 3_600_000).toISOString(),
        },
      }),
    ),
  );

/** Runs the steps one after the other, stopping at the first Err. */
const sequence = (steps: ReadonlyArray<() => ResultAsync<void, StorageUnavailable>>) =>
  steps.reduce<ResultAsync<void, StorageUnavailable>>((done, step) => done.andThen(step), okAsync(undefined));

/**
 * Seeds the demo on any adapters, through core's ports only: the four demo keys, client a1 of
 * manager A (with its creation history entry) and preset fees for both managers. Idempotent: what
 * exists (by fixed id) is left as it is, so running it twice duplicates nothing.
 */
export const seedDemoData = (ports: DemoSeedPorts): ResultAsync<void, StorageUnavailable> => {
  const now = (ports.clock ?? systemClock).now();
  const registerKeys = Object.values(demoIdentities).map(
    (identity) => () => ports.apiKeys.register(hashApiKey(identity.apiKey), identity.principal),
  );
  const insertClientA1 = () =>
    ports.clients.findById(clientA1Id).andThen((existing) => {
      if (existing !== null) return okAsync(undefined);
      const client = demoClientA1(now.toISOString());
      const creation: StatusHistoryEntry = {
        from: null,
        to: client.status,
        reason: null,
        actor: principalKey(demoIdentities.managerA.principal),
        at: client.createdAt,
      };
      return ports.unitOfWork
        .transaction((stores) => stores.clients.insert(client, creation))
        .orElse((error) =>
          // A concurrent seeding may have inserted it first (or a commit whose reply was lost may
          // have kept it): that is the outcome we wanted.
          ports.clients.findById(clientA1Id).andThen((found) =>
            found !== null
              ? okAsync(undefined)
              : // Any other end of this transaction (its commit's outcome unknown; no claim is
                // completed in it, so never a lost lock) is an outage of the seeding.
                errAsync(
                  error.type === 'StorageUnavailable' ? error : storageUnavailable('demo-seed')(error),
                ),
          ),
        );
    });
  const insertFees = demoFees(now).map(
    ({ managerId, fee }) =>
      () =>
        ports.presetFees.findById(managerId, fee.id).andThen((existing) =>
          existing === null
            ? ports.presetFees
                .insert(managerId, fee)
                // Another instance seeding at the same time inserted it first.
                .orElse((error) => (error.type === 'PresetFeeIdTaken' ? okAsync(undefined) : errAsync(error)))
            : okAsync(undefined),
        ),
  );
  return sequence([...registerKeys, insertClientA1, ...insertFees]);
};
