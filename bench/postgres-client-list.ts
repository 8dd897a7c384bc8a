/**
 * A manager's client list at scale, run with `node --import tsx bench/postgres-client-list.ts`.
 *
 * 1,000,000 clients over 1,000 managers (their rows interleaved over the table, the worst case for
 * one manager's list), each with a bank account and a wallet, entities with a representative;
 * VACUUM ANALYZE after the load. Then `kit.clients.list` with a page of 100 for each filter
 * combination (none, a status, a client type, both), at three places: the first page, a cursor
 * halfway through the list, the last full page. Each list is timed against the very SQL it sent,
 * sent straight through pg in the same run (bench/raw-sql-comparison.ts): goal p99 ≤ 1.5× the raw
 * query's p99 (decisions §9: no absolute millisecond goal). The plan of each query is checked: no
 * Seq Scan, no Sort (on the last page a sort of at most the page's rows is allowed). The plans are also asserted by
 * packages/postgres/test/list-query-plans.test.ts on smaller volumes.
 *
 * Uses DATABASE_URL when set, otherwise an embedded PostgreSQL in a temporary directory.
 * BENCH_CLIENTS overrides the number of clients (default 1,000,000).
 */
import {
  type ClientStatus,
  type ClientType,
  createOnboardingKit,
  type ManagerPrincipal,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { createPostgresAdapters, migrate } from '@onboarding-kit/postgres';
import { openTestDatabase } from '../packages/postgres/test-support/embedded-postgres-server.js';
import { createPool, type Pool } from '../packages/postgres/test-support/postgres-pool.js';
import { createGoalLedger, loadAverage, printPostgresBenchHeader } from './bench-report.js';
import { planOf, recordingPool, timeKitAgainstRaw } from './raw-sql-comparison.js';

const schema = 'bench';
const managers = 1000;
const total = Number(process.env.BENCH_CLIENTS ?? 1_000_000);
const pageSize = 100;
const listsPerCase = 300;
/** The kit's p99 may be at most this many times the p99 of the same SQL sent straight through pg. */
const maxRatio = 1.5;

const statuses: readonly ClientStatus[] = [
  'ONBOARDING_UNDER_REVIEW',
  'RESUBMISSION_REQUIRED',
  'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
  'VERIFIED',
  'DELETED',
];

const { checkGoal, finish } = createGoalLedger();

const managerId = (n: number) => `list-manager-${String(n).padStart(4, '0')}`;

const load = async (pool: Pool) => {
  const t = `"${schema}"`;
  const started = performance.now();
  // Status and type vary independently of the manager (i % 1000) and of each other.
  await pool.query(`
    INSERT INTO ${t}.clients (id, manager_id, client_type, status, individual_profile, individual_source_of_funds,
      company, company_directors_and_ubos, created_at, updated_at)
    SELECT gen_random_uuid(), 'list-manager-' || lpad((i % ${managers})::text, 4, '0'),
      CASE WHEN (i / ${managers}) % 3 = 0 THEN 'ENTITY' ELSE 'INDIVIDUAL' END,
      (ARRAY['${statuses.join("','")}'])[1 + (i / ${managers * 3}) % 5],
      CASE WHEN (i / ${managers}) % 3 = 0 THEN NULL
        ELSE '{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "dateOfBirth": "1990-01-01",
               "nationality": "FR", "idDocuments": ["0f6f1a52-3d56-4c1a-9d8f-9b1e7f6d2c11_passport.pdf"]}'::jsonb END,
      CASE WHEN (i / ${managers}) % 3 = 0 THEN NULL
        ELSE '{"sourceOfFunds": "SALARY", "expectedMonthlyVolume": "1000-10000"}'::jsonb END,
      CASE WHEN (i / ${managers}) % 3 = 0
        THEN '{"name": "Example Company", "registrationNumber": "RCS 123 456 789", "countryOfIncorporation": "FR"}'::jsonb
        ELSE NULL END,
      CASE WHEN (i / ${managers}) % 3 = 0 THEN '{"directors": [], "ubos": []}'::jsonb ELSE NULL END,
      timestamptz '2030-01-01' + i * interval '1 second', timestamptz '2030-01-01' + i * interval '1 second'
    FROM generate_series(1, ${total}) AS i`);
  await pool.query(`
    INSERT INTO ${t}.bank_accounts (id, client_id, position, label, fiat_currency, country_code, type, identifiers, created_at)
    SELECT gen_random_uuid(), id, 1, 'Main', 'EUR', 'FR', 'PERSONAL',
      '{"format": "IBAN", "iban": "FR7630006000011234567890189"}', created_at FROM ${t}.clients`);
  await pool.query(`
    INSERT INTO ${t}.blockchain_wallets (id, client_id, position, label, blockchain_network, address, created_at)
    SELECT gen_random_uuid(), id, 1, 'Treasury', 'ETHEREUM', '0x52908400098527886E0F7030069857D2E4169EE7', created_at
    FROM ${t}.clients`);
  await pool.query(`
    INSERT INTO ${t}.company_representatives (id, client_id, position, first_name, last_name, email,
      supporting_documents, role, created_at, updated_at)
    SELECT gen_random_uuid(), id, 1, 'Grace', 'Hopper', 'grace@example.com', '[]', 'AUTHORIZED_SIGNATORY',
      created_at, created_at
    FROM ${t}.clients WHERE client_type = 'ENTITY'`);
  await pool.query(`VACUUM ANALYZE`);
  console.log(`loaded and analyzed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

type Filter = { readonly status?: ClientStatus; readonly clientType?: ClientType };

/**
 * The cursor of core's `GET /clients` (pagination/page-cursor.ts, not exported): base64url of the
 * JSON pair [createdAt, id] of the last client of the previous page.
 */
const cursorOf = (createdAt: string, id: string): string =>
  Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

/**
 * For one manager and filter, a cursor halfway through its list (`deep`) or the one after which the
 * last full page of `pageSize` starts (`last`).
 */
const deepCursor = async (
  pool: Pool,
  manager: string,
  filter: Filter,
  at: 'deep' | 'last',
): Promise<string> => {
  const result = await pool.query(
    `WITH listed AS (
       SELECT id, created_at FROM "${schema}".clients
       WHERE manager_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR client_type = $3)
     )
     SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
     FROM listed ORDER BY created_at DESC, id DESC
     OFFSET greatest(0, ${at === 'deep' ? '(SELECT count(*) FROM listed) / 2' : `(SELECT count(*) FROM listed) - ${pageSize + 2}`}) LIMIT 1`,
    [manager, filter.status ?? null, filter.clientType ?? null],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error(`no clients for ${manager}`);
  return cursorOf(row.created_at, row.id);
};

const positions = { first: 'first page', deep: 'deep cursor (halfway)', last: 'last full page' } as const;

const main = async () => {
  const database = await openTestDatabase();
  const pool = createPool(database.connectionString, 4);
  try {
    (await migrate(pool, { schema }))._unsafeUnwrap();
    await printPostgresBenchHeader('PostgreSQL client list bench', pool);
    console.log(`\n## client list: ${total} clients over ${managers} managers, pages of ${pageSize}`);
    await load(pool);

    const recording = recordingPool(pool);
    const memory = createMemoryAdapters();
    const kit = createOnboardingKit({
      ...createPostgresAdapters({ pool: recording.pool, schema }),
      documentStorage: memory.documentStorage,
      clock: systemClock,
      ids: randomUuids,
    });

    const cases: Array<[string, string, Filter]> = [
      ['no filter', 'all', {}],
      ['status', 'status', { status: 'VERIFIED' }],
      ['clientType', 'type', { clientType: 'ENTITY' }],
      ['status and clientType', 'status+type', { status: 'VERIFIED', clientType: 'ENTITY' }],
    ];
    console.log(
      `${listsPerCase} lists per case, random managers, each against its own SQL sent straight through pg ` +
        `(goal p99 <= ${maxRatio}x the raw query's p99; plans: no Seq Scan, no Sort but on the last page)`,
    );
    for (const [label, short, filter] of cases) {
      for (const position of ['first', 'deep', 'last'] as const) {
        const chosen = Array.from({ length: listsPerCase }, (_, i) => managerId((i * 37 + 11) % managers));
        const cursors =
          position === 'first'
            ? chosen.map(() => undefined)
            : await Promise.all(chosen.map((manager) => deepCursor(pool, manager, filter, position)));
        let listed = 0;
        const timings = await timeKitAgainstRaw(pool, listsPerCase, async (i) => {
          const principal: ManagerPrincipal = { kind: 'manager', managerId: chosen[i] ?? '' };
          const cursor = cursors[i];
          const page = (
            await kit.clients.list(principal, {
              ...filter,
              limit: pageSize,
              ...(cursor === undefined ? {} : { cursor }),
            })
          )._unsafeUnwrap();
          listed += page.data.length;
          return recording.last();
        });
        const { types, sortedRows } = await planOf(pool, recording.last());
        const name = `${label}, ${positions[position]}`;
        const ratio = timings.kitP99 / timings.rawP99;
        console.log(
          `${name}: ${(listed / (2 * listsPerCase)).toFixed(0)} clients a page; kit p50 ${timings.kitP50.toFixed(2)} ms, ` +
            `p99 ${timings.kitP99.toFixed(2)} ms; raw SQL p50 ${timings.rawP50.toFixed(2)} ms, p99 ${timings.rawP99.toFixed(2)} ms; ` +
            `plan: ${[...new Set(types)].join(', ')}` +
            (sortedRows.length > 0 ? ` (sorting ${sortedRows.join(', ')} rows)` : ''),
        );
        const goalLabel = `pg.client-list.${short}.${position}`;
        checkGoal(`${goalLabel}.p99-vs-raw`, `${ratio.toFixed(2)}x`, `<= ${maxRatio}x`, ratio <= maxRatio);
        checkGoal(
          `${goalLabel}.plan-no-seq-scan`,
          types.includes('Seq Scan') ? 'Seq Scan' : 'none',
          'none',
          !types.includes('Seq Scan'),
        );
        // On the last page PostgreSQL may rightly fetch the few rows left by a bitmap scan and sort
        // them (packages/postgres/test/list-query-plans.test.ts); every other page is read in index order.
        const sortBound = position === 'last' ? 2 * (pageSize + 1) : 0;
        const sorted = Math.max(0, ...sortedRows);
        checkGoal(
          `${goalLabel}.plan-sort-rows`,
          sortedRows.length === 0 ? 'no Sort' : `${sorted} rows`,
          position === 'last' ? `<= ${sortBound} rows` : 'no Sort',
          position === 'last' ? sorted <= sortBound : sortedRows.length === 0,
        );
      }
    }
    console.log(`\nload average (1, 5, 15 min) at the end: ${loadAverage()}`);
  } finally {
    await pool.end();
    await database.close();
  }
  finish();
};

await main();
