import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * A named (prepared) statement is planned per connection, and PostgreSQL may keep one generic plan
 * for it, made without the values, until something invalidates it (autoanalyze does, as a table
 * grows by a tenth). So the generic plans of the statements of a create, made on the empty tables
 * (the worst case), read no table that grows with use by a sequential scan. The claim on the uploads did
 * (a hash anti-join over all of `documents`, up to 3.5 ms of PostgreSQL CPU per create after 28,000
 * creates where nothing analyzed the table), and its expired claims were deleted by a semi-join
 * over all of `temporary_file_claims`.
 *
 * That PostgreSQL keeps these plans once the tables are analyzed, rather than planning each
 * execution anew, is generic-plans-on-analyzed-tables.test.ts.
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

/** Tables that hold configuration, a handful of rows whatever the traffic: pg-boss's queues. */
const alwaysSmall = new Set(['queue']);

describe('the plans of a create stay right as the tables grow', () => {
  it.each([
    ['the idempotency claim', /INSERT INTO \S+\.idempotency_records/],
    ['the claim on the uploads', /INSERT INTO \S+\.temporary_file_claims/],
    ['the client, its child rows and its history', /INSERT INTO \S+\.clients /],
    ['its documents', /INSERT INTO \S+\.documents /],
    ['its events', /INSERT INTO \S+\.client_events /],
    ['its audit entry', /INSERT INTO \S+\.audit_entries /],
    ['the completion of its key', /UPDATE \S+\.idempotency_records\s+SET state = 'COMPLETED'/],
  ])('%s: a named statement whose generic plan scans no growing table', async (_name, pattern) => {
    const scanned = await sequentiallyScannedByGenericPlan(sentNamed(pattern));
    expect(scanned.filter((table) => !alwaysSmall.has(table))).toEqual([]);
  });
});
