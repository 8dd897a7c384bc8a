import type { Pool } from '../packages/postgres/test-support/postgres-pool.js';
import { percentile } from './bench-report.js';

export type SentStatement = { readonly text: string; readonly values: readonly unknown[] };

/**
 * A pool that remembers the last statement each `query` sent, so that a list bench can send the
 * very SQL an adapter sent straight through pg (the baseline of its goal) and EXPLAIN it.
 */
export const recordingPool = (pool: Pool): { readonly pool: Pool; readonly last: () => SentStatement } => {
  let last: SentStatement | undefined;
  const recording = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver);
      return (statement: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
        last =
          typeof statement === 'string'
            ? { text: statement, values: values ?? [] }
            : { text: statement.text, values: statement.values ?? [] };
        return typeof statement === 'string' ? target.query(statement, values) : target.query(statement);
      };
    },
  });
  return {
    pool: recording,
    last: () => {
      if (last === undefined) throw new Error('no statement recorded');
      return last;
    },
  };
};

type PlanNode = { 'Node Type': string; 'Plan Rows': number; Plans?: PlanNode[] };
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The node types of a statement's plan, and the estimated rows of each Sort in it. */
export const planOf = async (
  pool: Pool,
  statement: SentStatement,
): Promise<{ readonly types: readonly string[]; readonly sortedRows: readonly number[] }> => {
  const explained = await pool.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
  const nodes = planNodes(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
  return {
    types: nodes.map((node) => node['Node Type']),
    sortedRows: nodes.filter((node) => node['Node Type'].endsWith('Sort')).map((node) => node['Plan Rows']),
  };
};

export type KitAgainstRaw = {
  readonly kitP99: number;
  readonly rawP99: number;
  readonly kitP50: number;
  readonly rawP50: number;
};

/**
 * Times `calls` lists through the kit against the very statement each sent, sent straight through
 * pg. A first, untimed pass through the kit records the statements and warms both paths (JIT, the
 * plan cache, the index pages); the timed pass then runs each pair in alternating order (kit first
 * on even calls, raw first on odd ones), so that neither side always finds the pages the other
 * just read, and a change of load weighs on both alike. `kitList(i)` runs the i-th list through
 * the kit and returns the statement it sent.
 */
export const timeKitAgainstRaw = async (
  pool: Pool,
  calls: number,
  kitList: (i: number) => Promise<SentStatement>,
): Promise<KitAgainstRaw> => {
  const statements: SentStatement[] = [];
  for (let i = 0; i < calls; i += 1) statements.push(await kitList(i));
  const kit: number[] = [];
  const raw: number[] = [];
  const timed = async (work: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    await work();
    into.push(performance.now() - started);
  };
  for (const [i, statement] of statements.entries()) {
    const viaKit = () => timed(() => kitList(i), kit);
    const viaPg = () => timed(() => pool.query(statement.text, [...statement.values]), raw);
    if (i % 2 === 0) {
      await viaKit();
      await viaPg();
    } else {
      await viaPg();
      await viaKit();
    }
  }
  kit.sort((a, b) => a - b);
  raw.sort((a, b) => a - b);
  return {
    kitP50: percentile(kit, 50),
    kitP99: percentile(kit, 99),
    rawP50: percentile(raw, 50),
    rawP99: percentile(raw, 99),
  };
};
