import {
  type ScreenedNameCandidate,
  type ScreenedNameIndex,
  type ScreeningSubject,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

const statements = statementsPerSchema((tables) => ({
  // The client's rows are replaced whole: those of fields it no longer has go, the others are written.
  replace: preparedStatement(
    `WITH names AS (
       SELECT * FROM json_to_recordset($2::json) AS n(field text, name text, kind text, country text, birth_date text, keys text[])
     ), gone AS (
       DELETE FROM ${tables.screenedNames} s
       WHERE s.client_id = $1 AND NOT EXISTS (SELECT 1 FROM names WHERE names.field = s.field)
     )
     INSERT INTO ${tables.screenedNames} (client_id, field, name, kind, country, birth_date, keys)
     SELECT $1, field, name, kind, country, birth_date, keys FROM names
     ON CONFLICT (client_id, field) DO UPDATE
       SET name = excluded.name, kind = excluded.kind, country = excluded.country,
         birth_date = excluded.birth_date, keys = excluded.keys`,
  ),
  // The first page starts before every client (the nil UUID sorts first). The names sharing a key
  // are found key by key through the GIN index (`keys @> ARRAY[key]` for each key asked),
  // materialized so that the planner cannot walk the primary key in the page's order instead and
  // test every row against every key (27 s), then each once in the page's order. Not `keys && $1`: the planner costs that overlap as one comparison
  // a row whatever the number of keys, and with a custom plan for a few hundred keys it chose a
  // sequential scan testing every row against every key (2.6 s against 175,000 names, where the
  // index answers in 20 ms; bench/postgres-screening-monitoring.ts). A lookup per key leaves it no
  // cheaper plan than the index.
  candidates: preparedStatement(
    `WITH shared AS MATERIALIZED (
       SELECT s.client_id, s.field, s.name, s.kind, s.country, s.birth_date, s.keys
       FROM unnest($1::text[]) AS asked (key)
       JOIN ${tables.screenedNames} s ON s.keys @> ARRAY[asked.key]
     )
     SELECT DISTINCT ON (client_id, field) client_id, field, name, kind, country, birth_date, keys FROM shared
     WHERE (client_id, field) > ($2::uuid, $3::text)
     ORDER BY client_id, field
     LIMIT $4`,
  ),
}));

type CandidateRow = {
  client_id: string;
  field: string;
  name: string;
  kind: ScreeningSubject['kind'];
  country: string | null;
  birth_date: string | null;
  keys: string[];
};

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** The index of screened names on PostgreSQL (migrations 0009, 0015): one row per client name, its keys in a GIN index. */
export const createPostgresScreenedNameIndex = (db: SqlSession, tables: KitTables): ScreenedNameIndex => {
  const sql = statements(tables);
  return {
    replace: (clientId, names) =>
      ResultAsync.fromPromise(
        db.query(
          sql.replace([
            clientId,
            JSON.stringify(
              names.map(({ field, name, kind, country, birthDate, keys }) => ({
                field,
                name,
                kind,
                country: country ?? null,
                birth_date: birthDate ?? null,
                keys: [...new Set(keys)],
              })),
            ),
          ]),
        ),
        unavailable,
      ).map(() => undefined),
    candidates: ({ keys, after, limit }) =>
      ResultAsync.fromPromise(
        db.query<CandidateRow>(
          sql.candidates([[...new Set(keys)], after?.clientId ?? NIL_UUID, after?.field ?? '', limit]),
        ),
        unavailable,
      ).map((result) =>
        result.rows.map(
          (row): ScreenedNameCandidate => ({
            clientId: row.client_id,
            field: row.field,
            name: row.name,
            kind: row.kind,
            ...(row.country === null ? {} : { country: row.country }),
            ...(row.birth_date === null ? {} : { birthDate: row.birth_date }),
            keys: row.keys,
          }),
        ),
      ),
  };
};
