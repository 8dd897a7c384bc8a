import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * A named (prepared) statement may be planned once per connection and that generic plan kept for
 * the connection's life: a plan made while the tables were empty must still be right when they
 * hold millions of rows. The bench found the claim on the uploads breaking that: made on an empty
 * `documents`, its plan kept a hash join over a sequential scan of it, and every create read every
 * document ever made (PostgreSQL's CPU per create rose with the table, 1.7 → 3.5 ms over 28,000
 * creates of one manager). So each statement of a create is either planned at each execution (not
 * named) or its generic plan, made on the empty tables (the worst case), reads no table that grows
 * with use by a sequential scan.
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

const statementNamed = (pattern: RegExp): SentStatement => {
  const found = sent.find((statement) => pattern.test(statement.text));
  if (found === undefined) throw new Error(`no statement of the create matches ${pattern}`);
  return found;
};

describe('the plans of a create stay right as the tables grow', () => {
  it('the claim on the uploads is planned at each execution, for the tables as they are', () => {
    const claim = statementNamed(/INSERT INTO \S+\.temporary_file_claims/);
    expect(claim.name).toBeUndefined();
  });

  it('every named statement of it has a generic plan that scans no growing table', async () => {
    const named = sent.filter((statement) => statement.name !== undefined);
    // The idempotency claim and the create itself, at least.
    expect(named.map((statement) => statement.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/INSERT INTO \S+\.idempotency_records/),
        expect.stringMatching(/INSERT INTO \S+\.clients /),
      ]),
    );
    for (const statement of named) {
      const scanned = await sequentiallyScannedByGenericPlan(statement);
      expect({
        statement: statement.text.slice(0, 80),
        scanned: scanned.filter((table) => !alwaysSmall.has(table)),
      }).toEqual({
        statement: statement.text.slice(0, 80),
        scanned: [],
      });
    }
  });
});
