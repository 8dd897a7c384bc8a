import type {
  BankAccount,
  BlockchainWallet,
  ClientStatus,
  ClientType,
  Company,
  CompanyDirectorsAndUbos,
  CompanyRepresentative,
  IndividualProfile,
  IndividualSourceOfFunds,
  ResubmissionRequirement,
  Screening,
  StatusHistoryEntry,
  TermsAcceptance,
} from '@onboarding-kit/core';
import type { StoredClient } from '@onboarding-kit/core/adapter';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';

/** A `clients` row with its child rows folded in as json arrays (already in wire shape). */
export type ClientRow = {
  id: string;
  manager_id: string;
  client_type: ClientType;
  status: ClientStatus;
  company: Company | null;
  company_directors_and_ubos: CompanyDirectorsAndUbos | null;
  individual_profile: IndividualProfile | null;
  individual_source_of_funds: IndividualSourceOfFunds | null;
  onboarding_resubmission_reason: string | null;
  resubmission_requirements: ResubmissionRequirement[] | null;
  terms_acceptance: TermsAcceptance | null;
  screening: Screening | null;
  /** Instants leave PostgreSQL as ISO text (`isoTimestampSql`): no Date parse and format per row. */
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  redacted_at: string | null;
  assignee_id: string | null;
  assigned_at: string | null;
  representatives: CompanyRepresentative[];
  bank_accounts: BankAccount[];
  blockchain_wallets: BlockchainWallet[];
};

export type StatusHistoryRow = {
  from_status: ClientStatus | null;
  to_status: ClientStatus;
  reason: string | null;
  actor: string;
  at: Date;
};

const isoTimestamp = isoTimestampSql;
const isoOrNull = (column: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE ${isoTimestamp(column)} END`;

/**
 * The SELECT list reading a client and its children in one round trip: each child table is folded
 * into a json array in its stored order, with wire names, by a correlated subquery on its index.
 */
export const clientSelectList = (tables: KitTables, alias: string): string => `
  ${alias}.id, ${alias}.manager_id, ${alias}.client_type, ${alias}.status, ${alias}.company,
  ${alias}.company_directors_and_ubos, ${alias}.individual_profile, ${alias}.individual_source_of_funds,
  ${alias}.onboarding_resubmission_reason, ${alias}.resubmission_requirements, ${alias}.terms_acceptance,
  ${alias}.screening,
  ${isoTimestamp(`${alias}.created_at`)} AS created_at,
  ${isoTimestamp(`${alias}.updated_at`)} AS updated_at, ${isoOrNull(`${alias}.deleted_at`)} AS deleted_at,
  ${isoOrNull(`${alias}.redacted_at`)} AS redacted_at,
  ${alias}.assignee_id, ${isoOrNull(`${alias}.assigned_at`)} AS assigned_at,
  (SELECT coalesce(json_agg(json_build_object(
      'id', r.id, 'firstName', r.first_name, 'lastName', r.last_name, 'dateOfBirth', r.date_of_birth,
      'email', r.email,
      'phone', r.phone, 'jobTitle', r.job_title, 'supportingDocuments', r.supporting_documents,
      'role', r.role, 'createdAt', ${isoTimestamp('r.created_at')},
      'updatedAt', ${isoTimestamp('r.updated_at')}, 'deletedAt', ${isoOrNull('r.deleted_at')}
    ) ORDER BY r.position), '[]')
   FROM ${tables.representatives} r WHERE r.client_id = ${alias}.id) AS representatives,
  (SELECT coalesce(json_agg(json_build_object(
      'id', b.id, 'label', b.label, 'fiatCurrency', b.fiat_currency, 'countryCode', b.country_code,
      'type', b.type, 'identifiers', b.identifiers,
      'thirdPartyBankAccountOwnerName', b.third_party_owner_name,
      'thirdPartyBankAccountOwnerAddress', b.third_party_owner_address,
      'thirdPartyBankAccountOwnerCity', b.third_party_owner_city,
      'thirdPartyBankAccountOwnerPostalCode', b.third_party_owner_postal_code,
      'thirdPartyBankAccountOwnerCountryCode', b.third_party_owner_country_code,
      'thirdPartyBankAccountOwnerDocuments', b.third_party_owner_documents,
      'createdAt', ${isoTimestamp('b.created_at')}
    ) ORDER BY b.position), '[]')
   FROM ${tables.bankAccounts} b WHERE b.client_id = ${alias}.id) AS bank_accounts,
  (SELECT coalesce(json_agg(json_build_object(
      'id', w.id, 'label', w.label, 'blockchainNetwork', w.blockchain_network, 'address', w.address,
      'createdAt', ${isoTimestamp('w.created_at')}
    ) ORDER BY w.position), '[]')
   FROM ${tables.wallets} w WHERE w.client_id = ${alias}.id) AS blockchain_wallets`;

export const toStoredClient = (row: ClientRow): StoredClient => ({
  id: row.id,
  managerId: row.manager_id,
  status: row.status,
  clientType: row.client_type,
  company: row.company,
  // Representatives are rows of their own; only entities have the list at all.
  // A redacted entity has none left: null, as every other onboarding object of it.
  companyRepresentatives:
    row.client_type === 'ENTITY' && row.redacted_at === null ? row.representatives : null,
  companyDirectorsAndUbos: row.company_directors_and_ubos,
  individualProfile: row.individual_profile,
  individualSourceOfFunds: row.individual_source_of_funds,
  onboardingResubmissionReason: row.onboarding_resubmission_reason,
  resubmissionRequirements: row.resubmission_requirements,
  bankAccounts: row.bank_accounts,
  blockchainWallets: row.blockchain_wallets,
  termsAcceptance: row.terms_acceptance,
  screening: row.screening,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at,
  redactedAt: row.redacted_at,
  assignee:
    row.assignee_id === null || row.assigned_at === null
      ? null
      : { complianceId: row.assignee_id, assignedAt: row.assigned_at },
});

export const toStatusHistoryEntry = (row: StatusHistoryRow): StatusHistoryEntry => ({
  from: row.from_status,
  to: row.to_status,
  reason: row.reason,
  actor: row.actor,
  at: row.at.toISOString(),
});

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** The client's own columns as bind values, in the order of the `clients` table. */
export const clientValues = (client: StoredClient): unknown[] => [
  client.id,
  client.managerId,
  client.clientType,
  client.status,
  jsonOrNull(client.company),
  jsonOrNull(client.companyDirectorsAndUbos),
  jsonOrNull(client.individualProfile),
  jsonOrNull(client.individualSourceOfFunds),
  client.onboardingResubmissionReason,
  client.createdAt,
  client.updatedAt,
  client.deletedAt,
];

/**
 * The review columns as bind values (migration 0003): bound after the statement's other parameters,
 * so the statements written before them keep their numbering.
 */
export const reviewValues = (client: StoredClient): [string | null, string | null] => [
  jsonOrNull(client.resubmissionRequirements),
  jsonOrNull(client.termsAcceptance),
];

/** The screening column as a bind value (migration 0006), bound after every other parameter. */
export const screeningValue = (client: StoredClient): string | null => jsonOrNull(client.screening);

/** The child rows of a client as three json arrays, unpacked in SQL by `jsonb_to_recordset`. */
export const childRowsJson = (client: StoredClient): [string, string, string] => [
  JSON.stringify(
    (client.companyRepresentatives ?? []).map((r) => ({
      id: r.id,
      first_name: r.firstName,
      last_name: r.lastName,
      date_of_birth: r.dateOfBirth,
      email: r.email,
      phone: r.phone,
      job_title: r.jobTitle,
      supporting_documents: r.supportingDocuments,
      role: r.role,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      deleted_at: r.deletedAt,
    })),
  ),
  JSON.stringify(
    client.bankAccounts.map((b) => ({
      id: b.id,
      label: b.label,
      fiat_currency: b.fiatCurrency,
      country_code: b.countryCode,
      type: b.type,
      identifiers: b.identifiers,
      third_party_owner_name: b.thirdPartyBankAccountOwnerName,
      third_party_owner_address: b.thirdPartyBankAccountOwnerAddress,
      third_party_owner_city: b.thirdPartyBankAccountOwnerCity,
      third_party_owner_postal_code: b.thirdPartyBankAccountOwnerPostalCode,
      third_party_owner_country_code: b.thirdPartyBankAccountOwnerCountryCode,
      third_party_owner_documents: b.thirdPartyBankAccountOwnerDocuments,
      created_at: b.createdAt,
    })),
  ),
  JSON.stringify(
    client.blockchainWallets.map((w) => ({
      id: w.id,
      label: w.label,
      blockchain_network: w.blockchainNetwork,
      address: w.address,
      created_at: w.createdAt,
    })),
  ),
];

/**
 * The statement that inserts every child row of client `$1` from the json arrays $2, $3, $4 (one
 * multi-row INSERT per table), and one status history row from $5..$9: the second statement of an
 * update, after the one that replaced the client and dropped its old child rows. `clientRow`, when
 * given, is a CTE that inserts the client row itself first (a create: one statement, the foreign
 * keys checked at its end).
 */
export const insertChildRowsStatement = (tables: KitTables, clientRow?: string): string => `WITH ${
  clientRow === undefined ? '' : `${clientRow}, `
}representatives AS (
    INSERT INTO ${tables.representatives} (id, client_id, position, first_name, last_name, date_of_birth,
      email, phone, job_title, supporting_documents, role, created_at, updated_at, deleted_at)
    SELECT r.id, $1, r.position, r.first_name, r.last_name, r.date_of_birth, r.email, r.phone, r.job_title,
      r.supporting_documents, r.role, r.created_at, r.updated_at, r.deleted_at
    FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (id uuid, first_name text, last_name text,
      date_of_birth text, email text, phone text, job_title text, supporting_documents jsonb, role text,
      created_at timestamptz, updated_at timestamptz, deleted_at timestamptz)) WITH ORDINALITY AS r(id,
      first_name, last_name, date_of_birth, email, phone, job_title, supporting_documents, role, created_at,
      updated_at, deleted_at, position)
  ), bank_accounts AS (
    INSERT INTO ${tables.bankAccounts} (id, client_id, position, label, fiat_currency, country_code, type,
      identifiers, third_party_owner_name, third_party_owner_address, third_party_owner_city,
      third_party_owner_postal_code, third_party_owner_country_code, third_party_owner_documents, created_at)
    SELECT b.id, $1, b.position, b.label, b.fiat_currency, b.country_code, b.type, b.identifiers,
      b.third_party_owner_name, b.third_party_owner_address, b.third_party_owner_city,
      b.third_party_owner_postal_code, b.third_party_owner_country_code, b.third_party_owner_documents,
      b.created_at
    FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (id uuid, label text, fiat_currency text,
      country_code text, type text, identifiers jsonb, third_party_owner_name text,
      third_party_owner_address text, third_party_owner_city text, third_party_owner_postal_code text,
      third_party_owner_country_code text, third_party_owner_documents jsonb, created_at timestamptz))
      WITH ORDINALITY AS b(id, label, fiat_currency, country_code, type, identifiers, third_party_owner_name,
      third_party_owner_address, third_party_owner_city, third_party_owner_postal_code,
      third_party_owner_country_code, third_party_owner_documents, created_at, position)
  ), wallets AS (
    INSERT INTO ${tables.wallets} (id, client_id, position, label, blockchain_network, address, created_at)
    SELECT w.id, $1, w.position, w.label, w.blockchain_network, w.address, w.created_at
    FROM ROWS FROM (jsonb_to_recordset($4::jsonb) AS (id uuid, label text, blockchain_network text,
      address text, created_at timestamptz)) WITH ORDINALITY AS w(id, label, blockchain_network, address,
      created_at, position)
  )
  INSERT INTO ${tables.statusHistory} (client_id, from_status, to_status, reason, actor, at)
  VALUES ($1, $5, $6, $7, $8, $9)`;

export const historyValues = (entry: StatusHistoryEntry): unknown[] => [
  entry.from,
  entry.to,
  entry.reason,
  entry.actor,
  entry.at,
];
