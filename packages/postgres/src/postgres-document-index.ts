import { type DocumentIndex, type DocumentRecord, storageUnavailable } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement } from './prepared-statement.js';
import { type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

type DocumentRow = {
  key: string;
  client_id: string;
  manager_id: string;
  filename: string;
  size: string;
  stored_at: Date;
};

/** The index's insert, built once per schema. */
const insertDocumentsStatement = statementsPerSchema((tables) =>
  preparedStatement(
    `INSERT INTO ${tables.documents} (key, client_id, manager_id, filename, size, stored_at)
     SELECT d.key, d.client_id, d.manager_id, d.filename, d.size, d.stored_at
     FROM jsonb_to_recordset($1::jsonb) AS d(key text, client_id uuid, manager_id text, filename text,
       size bigint, stored_at timestamptz)`,
  ),
);

/** The documents index on PostgreSQL: one multi-row INSERT per batch, one lookup by primary key. */
export const createPostgresDocumentIndex = (db: SqlSession, tables: KitTables): DocumentIndex => {
  const insertDocuments = insertDocumentsStatement(tables);
  return {
    insertMany: (documents: readonly DocumentRecord[]) =>
      documents.length === 0
        ? okAsync(undefined)
        : ResultAsync.fromPromise(
            db.query(
              insertDocuments([
                JSON.stringify(
                  documents.map((d) => ({
                    key: d.key,
                    client_id: d.clientId,
                    manager_id: d.managerId,
                    filename: d.filename,
                    size: d.size,
                    stored_at: d.storedAt,
                  })),
                ),
              ]),
            ),
            unavailable,
          ).map(() => undefined),

    findIndexedKeys: (keys: readonly string[]) =>
      keys.length === 0
        ? okAsync([])
        : ResultAsync.fromPromise(
            db.query<{ key: string }>(`SELECT key FROM ${tables.documents} WHERE key = ANY($1::text[])`, [
              keys,
            ]),
            unavailable,
          ).map((result) => result.rows.map((row) => row.key)),
    findByKeys: (managerId: string, keys: readonly string[]) =>
      keys.length === 0
        ? okAsync([])
        : ResultAsync.fromPromise(
            db.query<DocumentRow>(
              `SELECT key, client_id, manager_id, filename, size, stored_at FROM ${tables.documents}
             WHERE key = ANY($1::text[]) AND manager_id = $2`,
              [keys, managerId],
            ),
            unavailable,
          ).map((result) =>
            result.rows.map(
              (row): DocumentRecord => ({
                key: row.key,
                clientId: row.client_id,
                managerId: row.manager_id,
                filename: row.filename,
                size: Number(row.size),
                storedAt: row.stored_at.toISOString(),
              }),
            ),
          ),
  };
};
