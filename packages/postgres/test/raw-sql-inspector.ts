import type {
  BankAccount,
  BlockchainWallet,
  CompanyRepresentative,
  PresetFee,
  StatusHistoryEntry,
} from '@onboarding-kit/core';
import type { DocumentRecord, StoredClient } from '@onboarding-kit/core/adapter';
import type pg from 'pg';
import type { KitTables } from '../src/kit-tables.js';

/**
 * Reads what reached the tables with plain SELECTs, one table at a time, independently of the
 * adapters' own SQL: the contract suites compare it with what they wrote.
 */
export const rawSqlInspector = (pool: pg.Pool, tables: KitTables) => {
  const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());
  const isoOf = (value: Date): string => value.toISOString();

  const readClient = async (clientId: string): Promise<StoredClient | null> => {
    const client = (await pool.query(`SELECT * FROM ${tables.clients} WHERE id::text = $1`, [clientId]))
      .rows[0];
    if (client === undefined) return null;
    const representatives = await pool.query(
      `SELECT * FROM ${tables.representatives} WHERE client_id = $1 ORDER BY position`,
      [clientId],
    );
    const bankAccounts = await pool.query(
      `SELECT * FROM ${tables.bankAccounts} WHERE client_id = $1 ORDER BY position`,
      [clientId],
    );
    const wallets = await pool.query(
      `SELECT * FROM ${tables.wallets} WHERE client_id = $1 ORDER BY position`,
      [clientId],
    );
    return {
      id: client.id,
      managerId: client.manager_id,
      status: client.status,
      clientType: client.client_type,
      company: client.company,
      companyRepresentatives:
        client.client_type === 'ENTITY' && client.redacted_at === null
          ? representatives.rows.map(
              (r): CompanyRepresentative => ({
                id: r.id,
                firstName: r.first_name,
                lastName: r.last_name,
                dateOfBirth: r.date_of_birth,
                email: r.email,
                phone: r.phone,
                jobTitle: r.job_title,
                supportingDocuments: r.supporting_documents,
                role: r.role,
                createdAt: isoOf(r.created_at),
                updatedAt: isoOf(r.updated_at),
                deletedAt: iso(r.deleted_at),
              }),
            )
          : null,
      companyDirectorsAndUbos: client.company_directors_and_ubos,
      individualProfile: client.individual_profile,
      individualSourceOfFunds: client.individual_source_of_funds,
      onboardingResubmissionReason: client.onboarding_resubmission_reason,
      resubmissionRequirements: client.resubmission_requirements,
      termsAcceptance: client.terms_acceptance,
      screening: client.screening,
      bankAccounts: bankAccounts.rows.map(
        (b): BankAccount => ({
          id: b.id,
          label: b.label,
          fiatCurrency: b.fiat_currency,
          countryCode: b.country_code,
          type: b.type,
          identifiers: b.identifiers,
          thirdPartyBankAccountOwnerName: b.third_party_owner_name,
          thirdPartyBankAccountOwnerAddress: b.third_party_owner_address,
          thirdPartyBankAccountOwnerCity: b.third_party_owner_city,
          thirdPartyBankAccountOwnerPostalCode: b.third_party_owner_postal_code,
          thirdPartyBankAccountOwnerCountryCode: b.third_party_owner_country_code,
          thirdPartyBankAccountOwnerDocuments: b.third_party_owner_documents,
          createdAt: isoOf(b.created_at),
        }),
      ),
      blockchainWallets: wallets.rows.map(
        (w): BlockchainWallet => ({
          id: w.id,
          label: w.label,
          blockchainNetwork: w.blockchain_network,
          address: w.address,
          createdAt: isoOf(w.created_at),
        }),
      ),
      createdAt: isoOf(client.created_at),
      updatedAt: isoOf(client.updated_at),
      deletedAt: iso(client.deleted_at),
      redactedAt: iso(client.redacted_at),
      assignee:
        client.assignee_id === null
          ? null
          : { complianceId: client.assignee_id, assignedAt: iso(client.assigned_at) as string },
    };
  };

  const readStatusHistory = async (clientId: string): Promise<StatusHistoryEntry[]> =>
    (
      await pool.query(`SELECT * FROM ${tables.statusHistory} WHERE client_id::text = $1 ORDER BY id`, [
        clientId,
      ])
    ).rows.map((h) => ({
      from: h.from_status,
      to: h.to_status,
      reason: h.reason,
      actor: h.actor,
      at: isoOf(h.at),
    }));

  const readDocumentRecord = async (key: string): Promise<DocumentRecord | null> => {
    const d = (await pool.query(`SELECT * FROM ${tables.documents} WHERE key = $1`, [key])).rows[0];
    return d === undefined
      ? null
      : {
          key: d.key,
          clientId: d.client_id,
          managerId: d.manager_id,
          filename: d.filename,
          size: Number(d.size),
          storedAt: isoOf(d.stored_at),
          ...(d.upload === null ? {} : { upload: d.upload }),
        };
  };

  const readUploadClaim = async (upload: string) => {
    const c = (
      await pool.query(`SELECT holder, expires_at FROM ${tables.temporaryFileClaims} WHERE upload = $1`, [
        upload,
      ])
    ).rows[0];
    return c === undefined ? null : { holder: c.holder as string, expiresAt: new Date(c.expires_at) };
  };

  const readIdempotencyRecord = async (scope: string, key: string) => {
    const r = (
      await pool.query(`SELECT * FROM ${tables.idempotency} WHERE scope = $1 AND idempotency_key = $2`, [
        scope,
        key,
      ])
    ).rows[0];
    if (r === undefined) return null;
    return {
      fingerprint: r.fingerprint as string,
      outcome: r.state === 'COMPLETED' ? r.outcome : null,
    };
  };

  const readPresetFee = async (
    presetFeeId: string,
  ): Promise<{ managerId: string; fee: PresetFee } | null> => {
    const f = (await pool.query(`SELECT * FROM ${tables.presetFees} WHERE id::text = $1`, [presetFeeId]))
      .rows[0];
    return f === undefined
      ? null
      : {
          managerId: f.manager_id,
          fee: {
            id: f.id,
            feeDirection: f.fee_direction,
            fiatFeeGroup: f.fiat_fee_group,
            blockchainFeeGroup: f.blockchain_fee_group,
            configuration: f.configuration,
            createdAt: isoOf(f.created_at),
          },
        };
  };

  const dumpApiKeys = async (): Promise<string> =>
    (await pool.query(`SELECT row_to_json(k)::text AS row FROM ${tables.apiKeys} k`)).rows
      .map((row) => row.row as string)
      .join('\n');

  /** A bare client row, for tables whose rows must point at an existing client. */
  const insertBareClient = async (clientId: string, managerId: string): Promise<void> => {
    await pool.query(
      `INSERT INTO ${tables.clients} (id, manager_id, client_type, status, created_at, updated_at)
       VALUES ($1, $2, 'INDIVIDUAL', 'ONBOARDING_UNDER_REVIEW', now(), now())`,
      [clientId, managerId],
    );
  };

  return {
    readClient,
    readStatusHistory,
    readDocumentRecord,
    readUploadClaim,
    readIdempotencyRecord,
    readPresetFee,
    dumpApiKeys,
    insertBareClient,
  };
};
