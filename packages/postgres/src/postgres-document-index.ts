import { type DocumentIndex, type DocumentRecord, storageUnavailable } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

type DocumentRow = {
  key: string;
  client_id: string;
  manager_id: string;
  filename: string;
  size: string;
  stored_at: Date;
  upload: string | null;
};

/** A document row as the index's insert takes it, in a json array. */
const documentRowJson = (d: DocumentRecord) => ({
  key: d.key,
  client_id: d.clientId,
  manager_id: d.managerId,
  filename: d.filename,
  size: d.size,
  stored_at: d.storedAt,
  upload: d.upload ?? null,
});

/**
 * The index's insert of the document rows of the json array $1 (`documentRowJson`'s shape), built
 * once per schema.
 *
 * The claims on their uploads stay until they expire. Deleting them here let a claim racing this
 * commit take an upload a document was just made from: its statement saw no document yet, and its
 * INSERT ... ON CONFLICT, having waited for this transaction, found no claim row any more. That
 * command then failed at its own document (`documents_by_upload`, a 503) instead of being refused
 * (a 400); 1 run in 12 of 20 parallel creates naming one file (one-use-upload.test.ts).
 */
const insertDocumentsStatement = statementsPerSchema((tables) =>
  preparedStatement(
    `INSERT INTO ${tables.documents} (key, client_id, manager_id, filename, size, stored_at, upload)
     SELECT d.key, d.client_id, d.manager_id, d.filename, d.size, d.stored_at, d.upload
     FROM jsonb_to_recordset($1::jsonb) AS d(key text, client_id uuid, manager_id text, filename text,
       size bigint, stored_at timestamptz, upload text)`,
  ),
);

/**
 * A claim, read top to bottom: $1 the holder, $2 now, $3 the uploads, $4 the expiry. A few expired
 * claims of anyone go first, oldest first (rows another claim is taking over at that moment are
 * skipped, not waited for), so the table holds little more than the claims in force. Each upload
 * no document was made from is then claimed, in name order (two claims of overlapping sets never
 * wait for each other in a cycle): a new row, or an existing one that expired or that this holder
 * already holds. The answer is the uploads not claimed.
 *
 * Written so that PostgreSQL keeps one generic plan of index probes, at any table size
 * (create-plans-at-any-size.test.ts, generic-plans-on-analyzed-tables.test.ts): the expired rows
 * are deleted by key, not by a join that scans the table; and the uploads pass through a LIMIT of
 * the array's own length, which changes no result but makes the generic plan count one upload
 * instead of the ten it assumes of an array parameter. Counting ten, it judged its probe of
 * `documents` ten times dearer than a plan for the one upload at hand, and planned every claim anew
 * on analyzed tables (+0.3 ms of PostgreSQL CPU a create).
 */
const claimStatement = statementsPerSchema((tables) =>
  preparedStatement(
    `WITH expired AS (
       DELETE FROM ${tables.temporaryFileClaims}
       WHERE upload = ANY(ARRAY(
         SELECT upload FROM ${tables.temporaryFileClaims}
         WHERE expires_at <= $2 AND upload <> ALL($3::text[])
         ORDER BY expires_at
         LIMIT 100 + 2 * cardinality($3::text[])
         FOR UPDATE SKIP LOCKED))
     ), claimed AS (
       INSERT INTO ${tables.temporaryFileClaims} AS claim (upload, holder, expires_at)
       SELECT DISTINCT u.upload, $1, $4::timestamptz
       FROM (SELECT upload FROM unnest($3::text[]) AS a(upload) LIMIT cardinality($3::text[])) AS u
       WHERE NOT EXISTS (SELECT 1 FROM ${tables.documents} d WHERE d.upload = u.upload)
       ORDER BY u.upload
       ON CONFLICT (upload) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE claim.expires_at <= $2 OR claim.holder = excluded.holder
       RETURNING upload
     )
     SELECT u.upload FROM unnest($3::text[]) AS u(upload)
     WHERE u.upload NOT IN (SELECT upload FROM claimed)`,
  ),
);

/** The documents index on PostgreSQL: one multi-row INSERT per batch, one lookup by primary key. */
export const createPostgresDocumentIndex = (db: SqlSession, tables: KitTables): DocumentIndex => {
  const insertDocuments = insertDocumentsStatement(tables);
  const claim = claimStatement(tables);
  return {
    insertMany: (documents: readonly DocumentRecord[]) =>
      documents.length === 0
        ? okAsync(undefined)
        : ResultAsync.fromPromise(
            db.query(insertDocuments([JSON.stringify(documents.map(documentRowJson))])).then(() => undefined),
            unavailable,
          ),

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
              `SELECT key, client_id, manager_id, filename, size, stored_at, upload FROM ${tables.documents}
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
                ...(row.upload === null ? {} : { upload: row.upload }),
              }),
            ),
          ),

    claimUploads: ({ holder, uploads, now, expiresAt }) =>
      uploads.length === 0
        ? okAsync([])
        : ResultAsync.fromPromise(
            db
              .query<{ upload: string }>(
                claim([holder, now.toISOString(), [...uploads], expiresAt.toISOString()]),
              )
              .then((result) => result.rows.map((row) => row.upload)),
            unavailable,
          ),

    // Keys and names through migration 0027's rule, the one core's redactedDocumentKey follows.
    redactForClient: (clientId: string) =>
      ResultAsync.fromPromise(
        db.query(
          `UPDATE ${tables.documents} SET key = ${tables.quotedSchema}.document_key_redacted(key), filename = '[redacted]'
           WHERE client_id = $1`,
          [clientId],
        ),
        unavailable,
      ).map(() => undefined),

    releaseUploads: (holder: string, uploads: readonly string[]) =>
      uploads.length === 0
        ? okAsync(undefined)
        : ResultAsync.fromPromise(
            db.query(
              `DELETE FROM ${tables.temporaryFileClaims} WHERE upload = ANY($2::text[]) AND holder = $1`,
              [holder, [...uploads]],
            ),
            unavailable,
          ).map(() => undefined),
  };
};
