import type { AuditAction, AuditChange, AuditEntry } from '@onboarding-kit/core';
import { type AuditLog, storageUnavailable } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** The columns of `audit_entries` (but its position, given by the table) as a json record set. */
const auditEntryRowsJson = (entries: readonly AuditEntry[]): string =>
  JSON.stringify(
    entries.map((entry, ordinal) => ({
      ordinal,
      id: entry.id,
      client_id: entry.clientId,
      action: entry.action,
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.id,
      request_id: entry.requestId,
      at: entry.at,
      changes: entry.changes,
      documents: entry.documents,
    })),
  );

const auditLogStatements = statementsPerSchema((tables) => ({
  append: preparedStatement(
    // In client order: the table chains each client's rows under a lock per client (migration
    // 0007), so two appends naming the same clients take their locks in the same order.
    `INSERT INTO ${tables.auditEntries} (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
     SELECT a.id, a.client_id, a.action, a.actor_kind, a.actor_id, a.request_id, a.at, a.changes,
       ARRAY(SELECT json_array_elements_text(a.documents))
     FROM json_to_recordset($1::json) AS a(ordinal integer, id uuid, client_id uuid, action text, actor_kind text,
       actor_id text, request_id text, at timestamptz, changes json, documents json)
     ORDER BY a.client_id, a.ordinal
     RETURNING id, hash`,
  ),
  // The seals of the rows just chained (migration 0021), made by core from the hashes they returned.
  seal: preparedStatement(
    `INSERT INTO ${tables.auditSeals} (entry_id, key_id, seal)
     SELECT s.entry_id, s.key_id, s.seal FROM json_to_recordset($1::json) AS s(entry_id uuid, key_id text, seal text)`,
  ),
  list: preparedStatement(
    `SELECT e.sequence, e.id, e.client_id, e.action, e.actor_kind, e.actor_id, e.request_id,
       ${isoTimestampSql('e.at')} AS at, e.changes, e.documents, e.previous_hash, e.changes_salt,
       e.changes_digest, e.documents_digest, e.hash, s.key_id AS seal_key_id, s.seal
     FROM ${tables.auditEntries} e LEFT JOIN ${tables.auditSeals} s ON s.entry_id = e.id
     WHERE e.client_id = $1 AND e.sequence > $2::bigint
     ORDER BY e.sequence LIMIT $3`,
  ),
  // The table lets an UPDATE of `changes` through only while this transaction says it is redacting,
  // for a redacted client, and only to the values and salt audit_changes_redacted leaves (migration
  // 0007), and the file names audit_documents_redacted leaves of a version 2 entry's documents
  // (migration 0027); the setting is turned off again right after, for the rest of the transaction.
  redactingOn: "SELECT set_config('onboarding_kit.redacting', 'on', true)",
  redactingOff: "SELECT set_config('onboarding_kit.redacting', 'off', true)",
  redact: `UPDATE ${tables.auditEntries}
    SET changes = ${tables.quotedSchema}.audit_changes_redacted(changes), changes_salt = NULL,
      documents = CASE WHEN documents_digest IS NULL THEN documents
        ELSE ${tables.quotedSchema}.audit_documents_redacted(documents) END
    WHERE client_id = $1`,
}));

type AuditEntryRow = {
  sequence: number;
  id: string;
  client_id: string;
  action: AuditAction;
  actor_kind: AuditEntry['actor']['kind'];
  actor_id: string;
  request_id: string | null;
  at: string;
  changes: AuditChange[];
  documents: string[];
  previous_hash: string | null;
  changes_salt: string | null;
  changes_digest: string;
  documents_digest: string | null;
  hash: string;
  seal_key_id: string | null;
  seal: string | null;
};

/**
 * The audit trail on PostgreSQL: one INSERT per append, in the command's transaction. The table
 * chains every inserted row itself and refuses UPDATE and DELETE but redaction's (migrations 0002
 * and 0007), so no statement here could change an entry even by mistake. A client's entries are
 * read in chain order: `position` is the entry's `sequence` in its client's chain.
 */
export const createPostgresAuditLog = (db: SqlSession, tables: KitTables): AuditLog => {
  const statements = auditLogStatements(tables);
  return {
    redactChanges: (clientId) =>
      ResultAsync.fromPromise(
        db.atomically(async (transaction) => {
          await transaction.query(statements.redactingOn);
          await transaction.query(statements.redact, [clientId]);
          await transaction.query(statements.redactingOff);
        }),
        unavailable,
      ),
    append: (entries, sealer) =>
      entries.length === 0
        ? okAsync(undefined)
        : ResultAsync.fromPromise(
            sealer === undefined
              ? db.query(statements.append([auditEntryRowsJson(entries)])).then(() => undefined)
              : // The entries and their seals together, also outside a command's transaction.
                db.atomically(async (transaction) => {
                  const chained = await transaction.query<{ id: string; hash: string }>(
                    statements.append([auditEntryRowsJson(entries)]),
                  );
                  const seals = chained.rows.map(({ id, hash }) => {
                    const { keyId, value } = sealer(hash);
                    return { entry_id: id, key_id: keyId, seal: value };
                  });
                  await transaction.query(statements.seal([JSON.stringify(seals)]));
                }),
            unavailable,
          ),
    listForClient: ({ clientId, afterPosition = '0', limit }) =>
      ResultAsync.fromPromise(
        db.query<AuditEntryRow>(statements.list([clientId, afterPosition, Math.max(1, Math.floor(limit))])),
        unavailable,
      ).map((result) =>
        result.rows.map((row) => ({
          position: String(row.sequence),
          entry: {
            id: row.id,
            clientId: row.client_id,
            action: row.action,
            actor: { kind: row.actor_kind, id: row.actor_id },
            requestId: row.request_id,
            at: row.at,
            changes: row.changes,
            documents: row.documents,
          },
          link: {
            sequence: row.sequence,
            previousHash: row.previous_hash,
            changesSalt: row.changes_salt,
            changesDigest: row.changes_digest,
            documentsDigest: row.documents_digest,
            hash: row.hash,
            seal:
              row.seal === null || row.seal_key_id === null
                ? null
                : { keyId: row.seal_key_id, value: row.seal },
          },
        })),
      ),
  };
};
