import type { Principal } from '@onboarding-kit/core';
import { type ApiKeyStore, storageUnavailable } from '@onboarding-kit/core/adapter';
import { ok, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import type { SqlSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

type ApiKeyRow = {
  principal_kind: Principal['kind'];
  manager_id: string | null;
  client_id: string | null;
  compliance_id: string | null;
};

/** The row's CHECK constraint guarantees the ids its kind needs; `?? ''` only satisfies the compiler. */
const toPrincipal = (row: ApiKeyRow): Principal => {
  switch (row.principal_kind) {
    case 'manager':
      return { kind: 'manager', managerId: row.manager_id ?? '' };
    case 'client':
      return { kind: 'client', clientId: row.client_id ?? '', managerId: row.manager_id ?? '' };
    case 'compliance':
      return { kind: 'compliance', complianceId: row.compliance_id ?? '' };
  }
};

const principalColumns = (principal: Principal): [string, string | null, string | null, string | null] => {
  switch (principal.kind) {
    case 'manager':
      return ['manager', principal.managerId, null, null];
    case 'client':
      return ['client', principal.managerId, principal.clientId, null];
    case 'compliance':
      return ['compliance', null, null, principal.complianceId];
  }
};

/** API keys on PostgreSQL: only the SHA-256 hex digest is stored (the column refuses anything else). */
export const createPostgresApiKeyStore = (db: SqlSession, tables: KitTables): ApiKeyStore => ({
  findPrincipal: (keyHash) =>
    ResultAsync.fromPromise(
      db.query<ApiKeyRow>(
        `SELECT principal_kind, manager_id, client_id, compliance_id FROM ${tables.apiKeys} WHERE key_hash = $1`,
        [keyHash],
      ),
      unavailable,
    ).map((result) => {
      const row = result.rows[0];
      return row === undefined ? null : toPrincipal(row);
    }),

  // Registering a key again re-points it, so a host can seed fixed keys at every start.
  register: (keyHash, principal) =>
    ResultAsync.fromPromise(
      db.query(
        `INSERT INTO ${tables.apiKeys} (key_hash, principal_kind, manager_id, client_id, compliance_id)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key_hash) DO UPDATE SET principal_kind = excluded.principal_kind,
           manager_id = excluded.manager_id, client_id = excluded.client_id, compliance_id = excluded.compliance_id`,
        [keyHash, ...principalColumns(principal)],
      ),
      unavailable,
    ).map(() => undefined),

  revoke: (keyHash) =>
    ResultAsync.fromPromise(
      db.query(`DELETE FROM ${tables.apiKeys} WHERE key_hash = $1`, [keyHash]),
      unavailable,
    ).andThen(() => ok(undefined)),
});
