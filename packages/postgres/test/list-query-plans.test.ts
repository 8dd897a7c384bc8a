import type { ClientListQuery, StoredClient } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * Real volumes, real statistics: 40,000 clients with their child rows, 8,000 of them of one large
 * manager (the case the indexes exist for: for a manager with a few dozen clients PostgreSQL may
 * rightly prefer to sort a few dozen rows) and the rest spread over 397 others; and 200,000
 * preset fees of 200 managers, interleaved (the worst case for a manager's rows), then VACUUM ANALYZE. The plans below are what PostgreSQL picks for the
 * adapters' own SQL (captured from the wire), with no planner setting forced.
 */
let database: MigratedDatabase;
const manager = 'manager-0042';
const feeManager = 'fee-manager-0042';

beforeAll(async () => {
  database = await openMigratedDatabase();
  const t = database.tables;
  // A bulk load builds the secondary indexes after the rows (as a restore does): the same indexes,
  // made from their own definitions. The ids rise with the row number (valid v4-shaped UUIDs, a
  // prefix per table): random ones put each row at a random place of its primary key's index and of
  // the child tables' (client_id, position) keys. The lists order by created_at, then id, and no plan
  // below reads a primary key.
  const indexes = await database.ownerPool.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = $1 AND tablename IN ('clients', 'preset_fees') AND indexname NOT IN ('clients_pkey', 'preset_fees_pkey')`,
    [database.schema],
  );
  for (const index of indexes.rows)
    await database.ownerPool.query(`DROP INDEX "${database.schema}"."${index.name}"`);
  /** The id of the series' row `i` in a table, `prefix` (8 hex digits) naming the table. */
  const risingId = (prefix: string) => `('${prefix}-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid`;
  /** The id of a client's child row: the client's own id under the table's prefix. */
  const childId = (prefix: string) => `('${prefix}' || substr(id::text, 9))::uuid`;
  await database.ownerPool.query(`
    INSERT INTO ${t.clients} (id, manager_id, client_type, status, individual_profile, company, created_at, updated_at)
    SELECT ${risingId('00000000')},
      CASE WHEN i % 5 = 0 THEN '${manager}' ELSE 'manager-' || lpad((100 + i % 397)::text, 4, '0') END,
      CASE WHEN (i / 5) % 3 = 0 THEN 'ENTITY' ELSE 'INDIVIDUAL' END,
      (ARRAY['ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
             'VERIFIED', 'DELETED'])[1 + (i / 5) % 5],
      CASE WHEN (i / 5) % 3 = 0 THEN NULL ELSE '{"firstName": "A"}'::jsonb END,
      CASE WHEN (i / 5) % 3 = 0 THEN '{"name": "Co"}'::jsonb ELSE NULL END,
      timestamptz '2030-01-01' + (i / 7) * interval '1 second', timestamptz '2030-01-01'
    FROM generate_series(1, 40000) AS i`);
  await database.ownerPool.query(`
    INSERT INTO ${t.bankAccounts} (id, client_id, position, fiat_currency, country_code, type, identifiers, created_at)
    SELECT ${childId('00000001')}, id, 1, 'EUR', 'FR', 'PERSONAL', '{"format": "IBAN"}', created_at
    FROM ${t.clients}`);
  await database.ownerPool.query(`
    INSERT INTO ${t.wallets} (id, client_id, position, blockchain_network, address, created_at)
    SELECT ${childId('00000002')}, id, 1, 'ETHEREUM', '0x0', created_at FROM ${t.clients}`);
  await database.ownerPool.query(`
    INSERT INTO ${t.representatives} (id, client_id, position, first_name, last_name, email,
      supporting_documents, role, created_at, updated_at)
    SELECT ${childId('00000003')}, id, 1, 'A', 'B', 'a@b.c', '[]', 'AUTHORIZED_SIGNATORY', created_at, created_at
    FROM ${t.clients} WHERE client_type = 'ENTITY'`);
  await database.ownerPool.query(`
    INSERT INTO ${t.presetFees} (id, manager_id, fee_direction, fiat_fee_group, blockchain_fee_group, configuration, created_at)
    SELECT ${risingId('00000004')}, 'fee-manager-' || lpad((i % 200)::text, 4, '0'),
      CASE WHEN i % 2 = 0 THEN 'ONRAMP' ELSE 'OFFRAMP' END, 'USD', 'USD_STABLECOIN',
      '{"type": "FLAT", "fee": 1}', timestamptz '2030-01-01' + (i / 3) * interval '1 second'
    FROM generate_series(1, 200000) AS i`);
  for (const index of indexes.rows) await database.ownerPool.query(index.definition);
  // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans rely on.
  await database.ownerPool.query('VACUUM ANALYZE');
}, 120_000);
afterAll(() => database.close());

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows': number;
  Plans?: PlanNode[];
};

const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** Runs the statement the adapter just sent under EXPLAIN and lists every node of its plan. */
const planOfLastStatement = async (): Promise<PlanNode[]> => {
  const sent = database.recentStatements().at(-1) as SentStatement;
  const explained = await database.ownerPool.query(`EXPLAIN (FORMAT JSON) ${sent.text}`, [...sent.values]);
  return planNodes(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
};

const expectIndexOrderedPlan = (nodes: PlanNode[], index: string) => {
  const types = nodes.map((node) => node['Node Type']);
  expect(types).not.toContain('Seq Scan');
  expect(types).not.toContain('Sort');
  expect(types).not.toContain('Incremental Sort');
  expect(nodes.map((node) => node['Index Name'])).toContain(index);
};

describe('EXPLAIN of the listing queries on real volumes', () => {
  const filters: [string, Omit<ClientListQuery, 'managerId' | 'limit'>, string][] = [
    ['no filter', {}, 'clients_by_manager'],
    ['a status', { status: 'VERIFIED' }, 'clients_by_manager_status'],
    ['a client type', { clientType: 'ENTITY' }, 'clients_by_manager_type'],
    [
      'a status and a client type',
      { status: 'VERIFIED', clientType: 'ENTITY' },
      'clients_by_manager_status_type',
    ],
  ];
  it.each(filters)(
    "lists a manager's clients with %s by an index scan in creation order",
    async (_, filter, index) => {
      const page = await database.adapters.clients.list({ managerId: manager, limit: 101, ...filter });
      expect(page._unsafeUnwrap().length).toBeGreaterThan(0);
      expectIndexOrderedPlan(await planOfLastStatement(), index);
    },
  );

  /** The whole list of the large manager with `filter`, newest first. */
  const everyClientOf = async (filter: Omit<ClientListQuery, 'managerId' | 'limit'>) =>
    (await database.adapters.clients.list({ managerId: manager, limit: 100_000, ...filter }))._unsafeUnwrap();

  /** The ids of the page (101 rows: a page and the look-ahead) after the client at `position` of `everyClient`. */
  const pageIdsAfter = async (
    filter: Omit<ClientListQuery, 'managerId' | 'limit'>,
    everyClient: readonly StoredClient[],
    position: number,
  ) => {
    const cursor = everyClient.at(position);
    if (cursor === undefined) throw new Error(`too few clients listed (${everyClient.length})`);
    const page = await database.adapters.clients.list({
      managerId: manager,
      limit: 101,
      ...filter,
      after: { createdAt: cursor.createdAt, id: cursor.id },
    });
    return page._unsafeUnwrap().map((client) => client.id);
  };

  it.each(filters)(
    "reads a page deep in a manager's list with %s after a cursor, by the same index, without a sort",
    async (_, filter, index) => {
      const everyClient = await everyClientOf(filter);
      // Deep: four pages of 100 before the end of the list (past 93 % of it without a filter).
      expect(await pageIdsAfter(filter, everyClient, -405)).toEqual(
        everyClient.slice(-404, -303).map((client) => client.id),
      );
      expectIndexOrderedPlan(await planOfLastStatement(), index);
    },
  );

  it.each(filters)(
    "reads the last page of a manager's list with %s by the same index, sorting at most that page",
    async (_, filter, index) => {
      const everyClient = await everyClientOf(filter);
      expect(await pageIdsAfter(filter, everyClient, -102)).toEqual(
        everyClient.slice(-101).map((client) => client.id),
      );
      // When no more than a page is left after the cursor, PostgreSQL may rightly fetch those rows
      // by a bitmap scan of the same index and sort them: a sort bounded by the page, never the list.
      const nodes = await planOfLastStatement();
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(nodes.map((node) => node['Index Name'])).toContain(index);
      for (const sort of nodes.filter((node) => node['Node Type'].endsWith('Sort'))) {
        expect(sort['Plan Rows']).toBeLessThanOrEqual(2 * 101);
      }
    },
  );

  it("lists a manager's preset fees by an index scan in creation order", async () => {
    const fees = await database.adapters.presetFees.listByManager(feeManager);
    expect(fees._unsafeUnwrap()).toHaveLength(1000);
    expectIndexOrderedPlan(await planOfLastStatement(), 'preset_fees_by_manager');
  });
});
