import type { ReviewQueueQuery } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * The review queue at 1,000,000 clients: most of them VERIFIED or DELETED (a client base grows,
 * the queue does not), 1.5 % under review and 0.5 % waiting for their terms, of every manager,
 * half of the waiting ones assigned to one of 20 reviewers, then VACUUM ANALYZE. The plans are
 * PostgreSQL's own for the adapter's SQL (captured from the wire), no planner setting forced.
 */
let database: MigratedDatabase;
const CLIENTS = 1_000_000;

beforeAll(async () => {
  database = await openMigratedDatabase();
  const t = database.tables;
  // A bulk load builds the secondary indexes after the rows (as a restore does): the same indexes,
  // made from their own definitions, in a fraction of the time of a million inserts into each.
  const indexes = await database.ownerPool.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = $1 AND tablename = 'clients' AND indexname <> 'clients_pkey'`,
    [database.schema],
  );
  for (const index of indexes.rows)
    await database.ownerPool.query(`DROP INDEX "${database.schema}"."${index.name}"`);
  // Onboarding objects and screenings only where the queue reads them: the waiting clients. The ids
  // rise with i, a valid v4-shaped UUID each: random ones put each of the million rows at a random
  // place of the primary key's index, which took 23-25 s of the load against 5 s this way (load
  // average 6-8 on 2 cores). The queue orders by created_at (unique here), then id: no plan below
  // reads the primary key.
  await database.ownerPool.query(`
    INSERT INTO ${t.clients} (id, manager_id, client_type, status, screening, created_at, updated_at,
      assignee_id, assigned_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'manager-' || (i % 400),
      CASE WHEN i % 3 = 0 THEN 'ENTITY' ELSE 'INDIVIDUAL' END,
      CASE WHEN i % 200 < 3 THEN 'ONBOARDING_UNDER_REVIEW'
           WHEN i % 200 = 3 THEN 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE'
           WHEN i % 200 < 20 THEN 'DELETED' ELSE 'VERIFIED' END,
      CASE WHEN i % 200 >= 4 THEN NULL
           WHEN i % 7 = 0 THEN '{"status": "POSSIBLE_MATCH", "screenedAt": null, "hits": []}'::jsonb
           ELSE '{"status": "CLEAR", "screenedAt": null, "hits": []}'::jsonb END,
      timestamptz '2030-01-01' + i * interval '1 second', timestamptz '2030-01-01',
      CASE WHEN i % 200 < 4 AND (i / 200) % 2 = 0 THEN 'reviewer-' || ((i / 400) % 20) END,
      CASE WHEN i % 200 < 4 AND (i / 200) % 2 = 0 THEN timestamptz '2031-01-01' END
    FROM generate_series(1, ${CLIENTS}) AS i`);
  // Each manager's k-th waiting client in a status (oldest first) holds turn k - 1, as migration
  // 0024 numbers the clients already waiting.
  await database.ownerPool.query(`
    UPDATE ${t.clients} c SET review_turn = ranked.turn
    FROM (SELECT id, (row_number() OVER (PARTITION BY status, manager_id ORDER BY created_at, id) - 1)::int AS turn
          FROM ${t.clients}
          WHERE status IN ('ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE')) ranked
    WHERE c.id = ranked.id`);
  for (const index of indexes.rows) await database.ownerPool.query(index.definition);
  await database.ownerPool.query('VACUUM ANALYZE');
}, 600_000);
afterAll(() => database.close());

type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows': number;
  Plans?: PlanNode[];
};
/**
 * The nodes that read and order the clients: the subplans that fold each client's child rows into
 * json arrays (sorted by position, per client) are left out.
 */
const planNodes = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan').flatMap(planNodes),
];

/** The plan of the last statement sent (or of the last one that `sentWith` names). */
const planOfLastStatement = async (sentWith = ''): Promise<PlanNode[]> => {
  const sent = database
    .recentStatements()
    .filter((statement) => statement.text.includes(sentWith))
    .at(-1) as SentStatement;
  const explained = await database.ownerPool.query(`EXPLAIN (FORMAT JSON) ${sent.text}`, [...sent.values]);
  return planNodes(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
};

/** No scan of the clients table but by an index (the child tables, empty here, may be read whole). */
const expectNoClientSeqScan = (nodes: PlanNode[]) =>
  expect(
    nodes.filter((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'clients'),
    JSON.stringify(nodes.map((node) => [node['Node Type'], node['Relation Name'], node['Index Name']])),
  ).toEqual([]);

/**
 * Read by `index`; with no sort at all, or, where `sortsAtMost` is given, sorting at most that
 * many rows (the matches of one waiting status, never the client base).
 */
const expectIndexOrderedPlan = (nodes: PlanNode[], index: string, sortsAtMost = 0) => {
  expectNoClientSeqScan(nodes);
  const sorts = nodes.filter((node) => node['Node Type'].endsWith('Sort'));
  for (const sort of sorts) expect(sort['Plan Rows']).toBeLessThanOrEqual(sortsAtMost);
  if (sortsAtMost === 0) expect(sorts, JSON.stringify(nodes.map((node) => node['Node Type']))).toEqual([]);
  expect(
    nodes.map((node) => node['Index Name']),
    JSON.stringify(nodes.map((node) => [node['Node Type'], node['Index Name']])),
  ).toContain(index);
};

describe('EXPLAIN of the review queue at 1,000,000 clients', () => {
  // The filters on type and screening state are not in the indexes: PostgreSQL may rightly fetch
  // their matches in one status (a few thousand here) by the queue's index and sort those.
  const filters: [string, Omit<ReviewQueueQuery, 'limit'>, string, number?][] = [
    ['under review, no filter', { status: 'ONBOARDING_UNDER_REVIEW' }, 'clients_review_queue'],
    [
      'waiting for terms, a type and a screening state',
      { status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', clientType: 'ENTITY', screening: 'CLEAR' },
      'clients_review_queue_by_type',
      5_000,
    ],
    [
      'unassigned',
      { status: 'ONBOARDING_UNDER_REVIEW', assigneeId: null },
      'clients_review_queue_unassigned',
    ],
    [
      "a reviewer's own",
      { status: 'ONBOARDING_UNDER_REVIEW', assigneeId: 'reviewer-4' },
      'clients_review_queue_by_assignee',
    ],
  ];

  it.each(filters)(
    'reads a page (%s) by an index scan in queue order, also deep after a cursor',
    async (_, query, index, sortsAtMost) => {
      const first = (await database.adapters.clients.reviewQueue({ ...query, limit: 101 }))._unsafeUnwrap();
      expect(first).toHaveLength(101);
      expectIndexOrderedPlan(await planOfLastStatement(), index, sortsAtMost);
      // Deep: the thousandth page of 10 reads from its cursor on, not from the start.
      const everyOne = (
        await database.adapters.clients.reviewQueue({ ...query, limit: 100_000 })
      )._unsafeUnwrap();
      const cursor = everyOne.at(Math.floor(everyOne.length / 2)) ?? expect.fail('a queue');
      const deep = (
        await database.adapters.clients.reviewQueue({
          ...query,
          limit: 11,
          after: { turn: cursor.turn, createdAt: cursor.client.createdAt, id: cursor.client.id },
        })
      )._unsafeUnwrap();
      const middle = Math.floor(everyOne.length / 2);
      expect(deep.map((row) => row.client.id)).toEqual(
        everyOne.slice(middle + 1, middle + 12).map((row) => row.client.id),
      );
      expectIndexOrderedPlan(await planOfLastStatement(), index, sortsAtMost);
    },
  );

  it('locks the next unassigned client by the unassigned index, without a sort', async () => {
    const next = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', {}),
    );
    expect(next._unsafeUnwrap()?.assignee).toBeNull();
    expectIndexOrderedPlan(await planOfLastStatement('SKIP LOCKED'), 'clients_review_queue_unassigned');
  });

  it('counts the queue from the partial indexes, never scanning the million clients', async () => {
    const counts = (await database.adapters.clients.countReviewQueue({}))._unsafeUnwrap();
    expect(counts).toEqual({
      ONBOARDING_UNDER_REVIEW: 15_000,
      WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 5_000,
    });
    const nodes = await planOfLastStatement();
    expectNoClientSeqScan(nodes);
    // Any of the partial indexes of the waiting clients (the smallest is the managers' turns).
    expect(
      nodes.some((node) => /^clients_review_(queue|turns)/.test(node['Index Name'] ?? '')),
      JSON.stringify(nodes.map((node) => [node['Node Type'], node['Index Name']])),
    ).toBe(true);
    const mine = (
      await database.adapters.clients.countReviewQueue({ assigneeId: 'reviewer-4' })
    )._unsafeUnwrap();
    expect(mine.ONBOARDING_UNDER_REVIEW + mine.WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE).toBeGreaterThan(0);
    expectNoClientSeqScan(await planOfLastStatement());
  });
});
