import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * A named (prepared) statement may be planned once per connection and that generic plan kept
 * until PostgreSQL invalidates it (autoanalyze does, as a table grows by a tenth): a plan made
 * while the tables were empty should still be right when they hold millions of rows. So the
 * generic plans of the idempotency claim and of the create itself, made on the empty tables (the
 * worst case), read no table that grows with use by a sequential scan. (The create's webhook
 * endpoint lookup did, until it became a LATERAL probe of its index.)
 *
 * The claim on the uploads is not held to this, on measurement: its plan on empty tables scans
 * `documents` (a hash anti-join), which cost up to 3.5 ms of PostgreSQL CPU per create after 28,000
 * creates where nothing analyzed the table (autoanalyze replaces the plan in a running database).
 * Written so that even that plan probes the index (LATERAL), PostgreSQL judged the generic plan
 * dear next to a plan for the one upload at hand and planned every claim anew: +0.2 ms of
 * PostgreSQL CPU on every create, and the local-socket bench fell from 0.84x to 0.75x. See
 * docs/performance.md.
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
    if (process.env.SHOW_PLAN)
      console.log(
        JSON.stringify(
          explained.rows[0]['QUERY PLAN'][0].Plan,
          (k, v) =>
            [
              'Plan Width',
              'Parallel Aware',
              'Async Capable',
              'Parent Relationship',
              'Output',
              'Alias',
              'Schema',
            ].includes(k)
              ? undefined
              : v,
          1,
        ),
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

/** Tables that hold configuration, a handful of rows whatever the traffic: pg-boss's queues. */
const alwaysSmall = new Set(['queue']);

describe('the plans of a create stay right as the tables grow', () => {
  it.each([
    ['the idempotency claim', /INSERT INTO \S+\.idempotency_records/],
    ['the create itself', /INSERT INTO \S+\.clients /],
  ])('%s: a named statement whose generic plan scans no growing table', async (_name, pattern) => {
    const statement = sent.find((candidate) => pattern.test(candidate.text));
    if (statement === undefined) throw new Error(`the create sent no statement matching ${pattern}`);
    expect(statement.name).toMatch(/^okit_/);
    const scanned = await sequentiallyScannedByGenericPlan(statement);
    expect(scanned.filter((table) => !alwaysSmall.has(table))).toEqual([]);
  });
});
