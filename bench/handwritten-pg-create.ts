import { randomUUID } from 'node:crypto';
import type { IndividualOnboardingPayload } from '@onboarding-kit/core';
import { fingerprintRequestBody, type TextHashing } from '@onboarding-kit/core/adapter';
import type { Pool } from '../packages/postgres/test-support/postgres-pool.js';

export type HandwrittenCreate = {
  readonly managerId: string;
  readonly idempotencyKey: string;
  readonly payload: IndividualOnboardingPayload;
  /** The uploaded file the payload names (one, in `profile.idDocuments`). */
  readonly filename: string;
};

/**
 * A create as a team would write it by hand with pg, the baseline of the PostgreSQL benches: the
 * idempotency record claimed in its own autocommitted INSERT, the uploaded file claimed in another
 * (so that two requests cannot both use it: the kit claims before it copies), then BEGIN, one
 * statement per row (the document, the client, each bank account, each wallet, the status
 * history, the two outbox events in one INSERT, the audit entry, the completed record), COMMIT.
 * The same rows as the kit writes, into the kit's own tables. Answers the client as created.
 */
export const handwrittenPostgresCreate =
  (pool: Pool, schema: string, hashing: TextHashing) =>
  async ({ managerId, idempotencyKey, payload, filename }: HandwrittenCreate) => {
    const t = `"${schema}"`;
    const owner = `manager:${managerId}`;
    const scope = `${owner} POST /manager/v1/clients/individuals`;
    const now = new Date();
    const token = randomUUID();
    await pool.query(
      `INSERT INTO ${t}.idempotency_records (owner, scope, idempotency_key, fingerprint, token, state, created_at, locked_at)
       VALUES ($6, $1, $2, $3, $4, 'IN_PROGRESS', $5, $5)`,
      [scope, idempotencyKey, fingerprintRequestBody(payload, hashing)._unsafeUnwrap(), token, now, owner],
    );
    const upload = `${owner}/${filename}/${token}`;
    await pool.query(
      `INSERT INTO ${t}.temporary_file_claims (upload, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (upload) DO NOTHING`,
      [upload, token, new Date(now.getTime() + 360_000)],
    );
    const clientId = randomUUID();
    const documentKey = `${randomUUID()}_${filename}`;
    const profile = { ...payload.profile, idDocuments: [documentKey] };
    const client = {
      id: clientId,
      clientType: 'INDIVIDUAL',
      status: 'ONBOARDING_UNDER_REVIEW',
      individualProfile: profile,
      sourceOfFunds: payload.sourceOfFunds,
      bankAccounts: payload.bankAccounts,
      blockchainWallets: payload.blockchainWallets,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const db = await pool.connect();
    try {
      await db.query('BEGIN');
      await db.query(
        `INSERT INTO ${t}.documents (key, client_id, manager_id, filename, size, stored_at, upload)
         VALUES ($1, $2, $3, $4, 2048, $5, $6)`,
        [documentKey, clientId, managerId, filename, now, upload],
      );
      await db.query(
        `INSERT INTO ${t}.clients (id, manager_id, client_type, status, individual_profile, individual_source_of_funds,
           created_at, updated_at) VALUES ($1, $2, 'INDIVIDUAL', 'ONBOARDING_UNDER_REVIEW', $3, $4, $5, $5)`,
        [clientId, managerId, JSON.stringify(profile), JSON.stringify(payload.sourceOfFunds), now],
      );
      for (const [position, account] of payload.bankAccounts.entries()) {
        await db.query(
          `INSERT INTO ${t}.bank_accounts (id, client_id, position, label, fiat_currency, country_code, type, identifiers, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            randomUUID(),
            clientId,
            position + 1,
            account.label ?? null,
            account.fiatCurrency,
            account.countryCode,
            account.type,
            JSON.stringify(account.identifiers),
            now,
          ],
        );
      }
      for (const [position, wallet] of payload.blockchainWallets.entries()) {
        await db.query(
          `INSERT INTO ${t}.blockchain_wallets (id, client_id, position, label, blockchain_network, address, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            randomUUID(),
            clientId,
            position + 1,
            wallet.label ?? null,
            wallet.blockchainNetwork,
            wallet.address,
            now,
          ],
        );
      }
      await db.query(
        `INSERT INTO ${t}.client_status_history (client_id, from_status, to_status, actor, at)
         VALUES ($1, NULL, 'ONBOARDING_UNDER_REVIEW', $2, $3)`,
        [clientId, owner, now],
      );
      await db.query(
        `INSERT INTO ${t}.client_events (event_id, manager_id, client_id, type, created_at, body)
         VALUES ($1, $3, $4, 'client.created', $5, $6), ($2, $3, $4, 'documents.promoted', $5, $7)`,
        [
          randomUUID(),
          randomUUID(),
          managerId,
          clientId,
          now,
          JSON.stringify({ type: 'client.created', createdAt: now.toISOString(), data: { client } }),
          JSON.stringify({
            type: 'documents.promoted',
            createdAt: now.toISOString(),
            data: { clientId, documents: [{ key: documentKey, filename, size: 2048 }] },
          }),
        ],
      );
      await db.query(
        `INSERT INTO ${t}.audit_entries (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
         VALUES ($1, $2, 'create', 'manager', $3, NULL, $4, $5, $6)`,
        [
          randomUUID(),
          clientId,
          managerId,
          now,
          JSON.stringify(
            Object.entries({ ...payload, profile }).map(([path, after]) => ({ path, before: null, after })),
          ),
          [documentKey],
        ],
      );
      await db.query(
        `UPDATE ${t}.idempotency_records SET state = 'COMPLETED', outcome = $4, completed_at = $5
         WHERE scope = $1 AND idempotency_key = $2 AND token = $3`,
        [
          scope,
          idempotencyKey,
          token,
          JSON.stringify({ kind: 'command', ok: true, value: { id: clientId } }),
          now,
        ],
      );
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK');
      throw error;
    } finally {
      db.release();
    }
    return client;
  };
