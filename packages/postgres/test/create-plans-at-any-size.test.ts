import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * A named (prepared) statement is planned per connection, and PostgreSQL may keep one generic plan
 * for it, made without the values, until something invalidates it (autoanalyze does, as a table
 * grows by a tenth). Two things must hold for each named statement of a create:
 *
 * - Its generic plan made on the empty tables (the worst case) reads no table that grows with use
 *   by a sequential scan. The create's webhook endpoint lookup did, until it became a LATERAL probe
 *   of its index; the upload claim's anti-join did (a hash join over all of `documents`, up to
 *   3.5 ms of PostgreSQL CPU per create after 28,000 creates where nothing analyzed the table).
 * - On tables in use and analyzed, PostgreSQL keeps that generic plan rather than planning every
 *   execution anew. It compares the generic plan's cost with a plan for the values at hand: a
 *   generic plan assumes an array parameter holds 10 elements, so the upload claim's probe of
 *   `documents` per upload cost ten times the one-upload plan, and PostgreSQL planned every claim
 *   anew once autoanalyze had run (+0.3 ms of PostgreSQL CPU per create; the local-socket bench
 *   after an ANALYZE fell to 0.70x). The claim's uploads now pass through a LIMIT of the array's
 *   own length, which changes no result and makes the generic estimate one upload.
 */
let database: MigratedDatabase;
let sent: readonly SentStatement[];

beforeAll(async () => {
  database = await openMigratedDatabase();
  const { kit, manager, upload } = kitOnPostgres(database.adapters);
  upload('passport.pdf');
  const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
  const owner = `manager:${manager.managerId}`;
  const claim = (
    await kit.idempotency.claim({ scope: `${owner} POST /clients`, key: 'k-1', owner, body: payload })
  )._unsafeUnwrap();
  if (claim.type !== 'Claimed') throw new Error('the key was already used');
  const created = await kit.clients.createIndividual(manager, payload, { claim: claim.ref });
  expect(created.isOk()).toBe(true);
  sent = database.recentStatements();
});
afterAll(() => database.close());

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The tables sequentially scanned by the generic plan of `statement`, made on the tables as they are. */
const sequentiallyScannedByGenericPlan = async (statement: SentStatement): Promise<string[]> => {
  const db = await database.pool.connect();
  try {
    await db.query('BEGIN');
    await db.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await db.query(`PREPARE planned_statement AS ${statement.text}`);
    // A generic plan is made without the values: NULL for each is enough to run EXPLAIN.
    const values = statement.values.map(() => 'NULL').join(', ');
    const explained = await db.query(
      `EXPLAIN (FORMAT JSON) EXECUTE planned_statement${values === '' ? '' : `(${values})`}`,
    );
    return planNodes(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode)
      .filter((node) => node['Node Type'] === 'Seq Scan')
      .map((node) => node['Relation Name'] ?? '');
  } finally {
    await db.query('ROLLBACK');
    await db.query('DEALLOCATE ALL');
    db.release();
  }
};

/** The named statement the create sent whose text matches `pattern`. */
const sentNamed = (pattern: RegExp): SentStatement => {
  const statement = sent.find((candidate) => pattern.test(candidate.text));
  if (statement === undefined) throw new Error(`the create sent no statement matching ${pattern}`);
  expect(statement.name).toMatch(/^okit_/);
  return statement;
};

/**
 * How PostgreSQL plans ten executions of `statement` (with the values the create sent) once
 * `documents` holds 20,000 rows and the schema is analyzed: it always plans the first five for
 * their values, then keeps a generic plan only if that plan looks no dearer. All in a transaction
 * that is rolled back (ANALYZE counts the transaction's own rows; a failed execution rolls back to
 * its savepoint).
 */
const plansChosenOnAnalyzedTables = async (
  statement: SentStatement,
): Promise<{ generic: number; custom: number }> => {
  const db = await database.pool.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO ${database.tables.documents} (key, client_id, manager_id, filename, size, stored_at, upload)
       SELECT 'loaded-' || i, gen_random_uuid(), 'loaded-manager', 'file.pdf', 1, now(), 'loaded-upload-' || i
       FROM generate_series(1, 20000) AS i`,
    );
    const tables = await db.query<{ tablename: string }>(
      'SELECT tablename FROM pg_tables WHERE schemaname = $1',
      [database.schema],
    );
    for (const { tablename } of tables.rows)
      await db.query(`ANALYZE ${database.tables.quotedSchema}."${tablename}"`);
    for (let execution = 0; execution < 10; execution += 1) {
      await db.query('SAVEPOINT execution');
      await db
        .query({ name: 'planned_statement', text: statement.text, values: [...statement.values] })
        .catch(() => db.query('ROLLBACK TO SAVEPOINT execution'));
    }
    const counted = await db.query<{ generic_plans: string; custom_plans: string }>(
      `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'planned_statement'`,
    );
    const row = counted.rows[0];
    return { generic: Number(row?.generic_plans), custom: Number(row?.custom_plans) };
  } finally {
    await db.query('ROLLBACK');
    // The statement stays prepared on the connection until it closes.
    db.release(true);
  }
};

/** Tables that hold configuration, a handful of rows whatever the traffic: pg-boss's queues. */
const alwaysSmall = new Set(['queue']);

describe('the plans of a create stay right as the tables grow', () => {
  it.each([
    ['the idempotency claim', /INSERT INTO \S+\.idempotency_records/],
    ['the claim on the uploads', /INSERT INTO \S+\.temporary_file_claims/],
    ['the create itself', /INSERT INTO \S+\.clients /],
  ])('%s: a named statement whose generic plan scans no growing table', async (_name, pattern) => {
    const scanned = await sequentiallyScannedByGenericPlan(sentNamed(pattern));
    expect(scanned.filter((table) => !alwaysSmall.has(table))).toEqual([]);
  });

  it.each([
    ['the idempotency claim', /INSERT INTO \S+\.idempotency_records/],
    ['the claim on the uploads', /INSERT INTO \S+\.temporary_file_claims/],
    ['the create itself', /INSERT INTO \S+\.clients /],
  ])('%s: on analyzed tables in use, PostgreSQL keeps its generic plan', async (_name, pattern) => {
    expect(await plansChosenOnAnalyzedTables(sentNamed(pattern))).toEqual({ generic: 5, custom: 5 });
  });
});
