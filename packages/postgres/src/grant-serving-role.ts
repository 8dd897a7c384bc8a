import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import { defaultSchema, kitTables } from './kit-tables.js';
import { checkOut } from './sql-session.js';

export type GrantServingRoleOptions = {
  /** The role the kit serves as (a login role of its own, not the tables' owner). */
  readonly role: string;
  /** Schema of the kit's tables (default `onboarding_kit`); its job schema is granted too. */
  readonly schema?: string;
};

/** A role name as a quoted identifier: any name, no injection. */
const quotedRole = (role: string): string => `"${role.replaceAll('"', '""')}"`;

/**
 * Grants `role` what serving the kit needs on a migrated schema, sent through `ownerPool` (the
 * tables' owner, who migrated them): reading and writing the kit's tables and its job engine's,
 * except the audit trail, which it may only read, append to and redact (UPDATE of `changes`,
 * `changes_salt` and `documents` only, which the table's trigger narrows further) and its seals (read and
 * append only), the status history and the
 * event log, which it may read, append to and redact (UPDATE of `reason`, of `body`; no DELETE),
 * the clients, which it never deletes, and the migrations' record, which it may only read. A role that does not own a table cannot disable its triggers (nor set
 * `session_replication_role`): serving as it, no one holding the kit's credentials can delete,
 * truncate or rewrite an entry (docs/data-protection.md). Run it after every `migrate`: a new
 * table is granted only then.
 */
export const grantServingRole = (
  ownerPool: Pool,
  { role, schema = defaultSchema }: GrantServingRoleOptions,
): ResultAsync<void, StorageUnavailable> => {
  const tables = kitTables(schema);
  const jobs = `"${tables.jobSchema}"`;
  const grantee = quotedRole(role);
  const statements = [
    `GRANT USAGE ON SCHEMA ${tables.quotedSchema}, ${jobs} TO ${grantee}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${tables.quotedSchema}, ${jobs} TO ${grantee}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${tables.quotedSchema}, ${jobs} TO ${grantee}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${tables.quotedSchema}, ${jobs} TO ${grantee}`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${tables.migrations} FROM ${grantee}`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${tables.auditEntries} FROM ${grantee}`,
    `GRANT UPDATE (changes, changes_salt, documents) ON ${tables.auditEntries} TO ${grantee}`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${tables.auditSeals} FROM ${grantee}`,
    // The record of what happened to a client, beside the trail: appended to, and rewritten only by
    // redaction (a history's reasons, an event's body). A client row is never deleted (a delete is a
    // status), and deleting one would cascade to its history.
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${tables.statusHistory}, ${tables.events} FROM ${grantee}`,
    `GRANT UPDATE (reason) ON ${tables.statusHistory} TO ${grantee}`,
    `GRANT UPDATE (body) ON ${tables.events} TO ${grantee}`,
    `REVOKE DELETE, TRUNCATE ON ${tables.clients} FROM ${grantee}`,
  ];
  return ResultAsync.fromPromise(
    (async () => {
      const { client, release } = await checkOut(ownerPool);
      try {
        await client.query('BEGIN');
        for (const statement of statements) await client.query(statement);
        await client.query('COMMIT');
        release();
      } catch (failure) {
        // Closing the session ends the transaction: no grant of the list is left half made.
        release(failure);
        throw failure;
      }
    })(),
    storageUnavailable('postgres'),
  );
};
