import { randomUUID } from 'node:crypto';
import { creationEntryFor, storedClientFixture } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase, type SentStatement } from './postgres-test-database.js';

/**
 * The review queue when one manager floods it: 100,000 clients under review, 90,000 of them one
 * manager's and 10,000 of 100 others (100 each), each manager's k-th holding turn k - 1 (what the
 * adapter gives when they arrive from an empty queue, and what migration 0024 numbers), then VACUUM
 * ANALYZE. EXPLAIN ANALYZE of the adapter's own statements (captured from the wire): the plans are
 * asserted (index order, no sort, rows read bounded by the page); the times are printed, not
 * asserted (a shared machine makes them noise). Run:
 * `pnpm vitest run --project postgres packages/postgres/test/review-queue-fairness-at-scale.test.ts`.
 */
let database: MigratedDatabase;
const FLOOD = 90_000;
const OTHERS = 100;
const EACH = 100;
const WAITING = FLOOD + OTHERS * EACH;

beforeAll(async () => {
  database = await openMigratedDatabase();
  const t = database.tables;
  // The flood came first (its clients are the oldest), the others' clients after, spread out.
  await database.ownerPool.query(`
    INSERT INTO ${t.clients} (id, manager_id, client_type, status, created_at, updated_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
      CASE WHEN i <= ${FLOOD} THEN 'flood' ELSE 'manager-' || (i % ${OTHERS}) END,
      'INDIVIDUAL', 'ONBOARDING_UNDER_REVIEW',
      timestamptz '2030-01-01' + i * interval '1 second', timestamptz '2030-01-01'
    FROM generate_series(1, ${WAITING}) AS i`);
  await database.ownerPool.query(`
    UPDATE ${t.clients} c SET review_turn = ranked.turn
    FROM (SELECT id, (row_number() OVER (PARTITION BY status, manager_id ORDER BY created_at, id) - 1)::int AS turn
          FROM ${t.clients}) ranked
    WHERE c.id = ranked.id`);
  await database.ownerPool.query('VACUUM ANALYZE');
}, 600_000);
afterAll(() => database.close());

type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  Plans?: PlanNode[];
};
type Explained = { nodes: PlanNode[]; executionMs: number };

/** The plan's nodes but the subplans that fold each client's child rows into json arrays. */
const allNodes = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan').flatMap(allNodes),
];

/** EXPLAIN ANALYZE of the last statement sent whose text holds `marker`, its values changed by `edit`. */
const explainLast = async (
  marker: string,
  edit: (values: unknown[]) => void = () => {},
): Promise<Explained> => {
  const sent = database
    .recentStatements()
    .filter((statement) => statement.text.includes(marker))
    .at(-1) as SentStatement;
  const values = [...sent.values];
  edit(values);
  const client = await database.ownerPool.connect();
  try {
    // An INSERT explained runs: rolled back.
    await client.query('BEGIN');
    const explained = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent.text}`, values);
    const plan = explained.rows[0]['QUERY PLAN'][0] as { Plan: PlanNode; 'Execution Time': number };
    return { nodes: allNodes(plan.Plan), executionMs: plan['Execution Time'] };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
};

/** The scans of the clients table (not of the child tables the select list folds in). */
const clientScans = ({ nodes }: Explained) =>
  nodes.filter(
    (node) =>
      node['Node Type'].endsWith('Scan') &&
      (node['Relation Name'] === 'clients' || node['Index Name']?.startsWith('clients')),
  );

const expectOrderedByIndex = (explained: Explained, index: string, rowsAtMost: number) => {
  const shape = JSON.stringify(explained.nodes.map((node) => [node['Node Type'], node['Index Name']]));
  expect(
    explained.nodes.filter((node) => node['Node Type'].endsWith('Sort')),
    shape,
  ).toEqual([]);
  const scans = clientScans(explained);
  expect(
    scans.filter((node) => node['Node Type'] === 'Seq Scan'),
    shape,
  ).toEqual([]);
  expect(
    scans.map((node) => node['Index Name']),
    shape,
  ).toContain(index);
  for (const scan of scans)
    expect(scan['Actual Rows'] * scan['Actual Loops']).toBeLessThanOrEqual(rowsAtMost);
};

const figures: string[] = [];
afterAll(() => {
  // The figures of this run, for docs/performance.md.
  process.stdout.write(
    `review queue, ${WAITING} under review, ${FLOOD} of one manager:\n${figures.join('\n')}\n`,
  );
});

describe(`the review queue at ${WAITING.toLocaleString('en')} waiting clients, ${FLOOD.toLocaleString('en')} of one manager`, () => {
  it("puts a late manager's client within one turn of the head, by the adapter's own insert, read by two index entries", async () => {
    const late = storedClientFixture({ managerId: 'late-manager', createdAt: '2031-01-01T00:00:00.000Z' });
    (await database.adapters.clients.insert(late, creationEntryFor(late)))._unsafeUnwrap();
    // The same create again under another id, without child rows (their ids are taken).
    const insert = await explainLast('review_turn', (values) => {
      values.splice(0, 4, randomUUID(), '[]', '[]', '[]');
    });
    // The turn: the head's (one entry of the queue's index) and the manager's last (one entry of
    // its own): never a scan of the queue.
    const turnReads = clientScans(insert);
    expect(turnReads.map((node) => node['Index Name']).sort()).toEqual([
      'clients_review_queue',
      'clients_review_turns_by_manager',
    ]);
    for (const read of turnReads) expect(read['Actual Rows']).toBeLessThanOrEqual(1);
    const queue = (
      await database.adapters.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', limit: 1_000 })
    )._unsafeUnwrap();
    const place = queue.findIndex((row) => row.client.id === late.id);
    // Turn 0 holds the 101 managers' first clients, oldest first: the late one is the 102nd. Oldest
    // first, it was the 100,001st.
    expect(place).toBe(OTHERS + 1);
    figures.push(
      `- a late manager's client: place ${place + 1} (oldest first: ${WAITING + 1}); its turn read in ${turnReads
        .map((read) => `${read['Actual Total Time'].toFixed(3)} ms (${read['Index Name']})`)
        .join(' + ')}, the whole create statement ${insert.executionMs.toFixed(3)} ms (EXPLAIN ANALYZE)`,
    );
  });

  it('reads the first page, a deep page in the flood alone, and the next unassigned client by index order, rows read bounded by the page', async () => {
    const first = (
      await database.adapters.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', limit: 21 })
    )._unsafeUnwrap();
    // Every manager's first turn before the flood's second client.
    expect(new Set(first.map((row) => row.client.managerId)).size).toBe(21);
    const firstPlan = await explainLast('ORDER BY c.review_turn');
    expectOrderedByIndex(firstPlan, 'clients_review_queue', 21);

    // Deep: past every other manager's clients (turn 99 is their last), inside the flood alone.
    const deepCursor = { turn: 50_000, createdAt: '2030-01-01T00:00:00.000Z', id: randomUUID() };
    const deep = (
      await database.adapters.clients.reviewQueue({
        status: 'ONBOARDING_UNDER_REVIEW',
        limit: 21,
        after: deepCursor,
      })
    )._unsafeUnwrap();
    expect(deep.map((row) => row.turn)).toEqual(Array.from({ length: 21 }, (_, i) => 50_000 + i));
    const deepPlan = await explainLast('ORDER BY c.review_turn');
    expectOrderedByIndex(deepPlan, 'clients_review_queue', 21);

    const locked = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', {}),
    );
    expect(locked._unsafeUnwrap()?.managerId).toBe('flood');
    const lockPlan = await explainLast('SKIP LOCKED');
    expectOrderedByIndex(lockPlan, 'clients_review_queue_unassigned', 1);

    figures.push(
      `- first page of 20: ${firstPlan.executionMs.toFixed(3)} ms; a page at turn 50,000: ${deepPlan.executionMs.toFixed(3)} ms; next unassigned (lock): ${lockPlan.executionMs.toFixed(3)} ms (EXPLAIN ANALYZE execution times)`,
    );
  });
});
