import type { IdempotencyLockLost } from '@onboarding-kit/core';
import type { QueryConfig, QueryResultRow } from 'pg';
import type { KitTables } from './kit-tables.js';
import { preparedStatement } from './prepared-statement.js';

/**
 * The SQL of a write that a unit of work may hold back and send together with the others of its
 * transaction, as one statement of data-modifying CTEs: one round trip instead of one a write (each
 * cost the PostgreSQL create bench about 4 % of its rate, issue 10).
 *
 * - `statements`: INSERT, UPDATE or DELETE statements, none with a WITH of its own. `$n` is the
 *   write's n-th value; `{{k}}` names its k-th statement (to read what it RETURNs).
 * - `requirement`: a condition of what the statements did (over `{{k}}`). When it does not hold,
 *   the whole statement is refused, every write of the batch with it (migration 0009).
 * - `result`: an expression whose value the writer wants back.
 *
 * The statements of one batch all see the snapshot taken before it, not each other's rows, so a
 * write that must read what another wrote is not batched (the unit of work sends the batch before
 * any statement that is not). Foreign keys are checked at the end of the statement, after all.
 */
export type WriteTemplate = {
  readonly statements: readonly string[];
  readonly requirement?: string;
  readonly result?: string;
};

/** Why a requirement of a batch did not hold, as its writer reports it. */
export type RequirementFailure =
  | IdempotencyLockLost
  /** The managers with a webhook endpoint are not those the batch sent (or did not send) a job for. */
  | { readonly type: 'WebhookEndpointsChanged' };

/** One write: its template and values, and what its requirement failing means. */
export type BatchedWrite = {
  readonly template: WriteTemplate;
  readonly values: readonly unknown[];
  readonly failure?: RequirementFailure;
};

/** Thrown (as a rejection) when a write's requirement did not hold: nothing of its statement was kept. */
export class BatchedWriteRefused extends Error {
  constructor(readonly failure: RequirementFailure) {
    super(`a batched write was refused: ${failure.type}`);
  }
}

/** The SQLSTATE `batched_write_requirement` raises (migration 0009). */
const REQUIREMENT_FAILED = 'OKB01';

/** The batch position of the write whose requirement failed, when `failure` is that error. */
const failedRequirementPosition = (failure: unknown): number | undefined => {
  if (typeof failure !== 'object' || failure === null) return undefined;
  const { code, detail } = failure as { code?: unknown; detail?: unknown };
  return code === REQUIREMENT_FAILED && typeof detail === 'string' ? Number(detail) : undefined;
};

/**
 * The batch's error in its writer's terms: a `BatchedWriteRefused` when a requirement failed,
 * the driver's error otherwise.
 */
export const batchFailure = (writes: readonly BatchedWrite[], failure: unknown): unknown => {
  const position = failedRequirementPosition(failure);
  const refused = position === undefined ? undefined : writes[position]?.failure;
  return refused === undefined ? failure : new BatchedWriteRefused(refused);
};

/** Templates are numbered once each, so that a batch's shape has a short key. */
const templateNumbers = new WeakMap<WriteTemplate, number>();
let nextTemplateNumber = 0;
const templateNumber = (template: WriteTemplate): number => {
  let number = templateNumbers.get(template);
  if (number === undefined) {
    number = nextTemplateNumber;
    nextTemplateNumber += 1;
    templateNumbers.set(template, number);
  }
  return number;
};

const renumbered = (sql: string, valueOffset: number, prefix: string): string =>
  sql
    .replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + valueOffset}`)
    .replace(/\{\{(\d+)\}\}/g, (_, k: string) => `${prefix}_${k}`);

const combinedText = (tables: KitTables, templates: readonly WriteTemplate[]): string => {
  const ctes: string[] = [];
  const columns: string[] = [];
  let valueOffset = 0;
  templates.forEach((template, position) => {
    const prefix = `w${position}`;
    template.statements.forEach((statement, k) => {
      ctes.push(`${prefix}_${k} AS (${renumbered(statement, valueOffset, prefix)})`);
    });
    if (template.requirement !== undefined) {
      columns.push(
        `${tables.batchedWriteRequirement}((${renumbered(template.requirement, valueOffset, prefix)}), ${position}) AS q${position}`,
      );
    }
    if (template.result !== undefined) {
      columns.push(`(${renumbered(template.result, valueOffset, prefix)}) AS r${position}`);
    }
    valueOffset += valueCount(template);
  });
  return `${ctes.length === 0 ? '' : `WITH ${ctes.join(',\n')}\n`}SELECT ${columns.length === 0 ? 'true AS written' : columns.join(', ')}`;
};

/** The highest `$n` of a template: how many values it takes. */
const valueCounts = new WeakMap<WriteTemplate, number>();
const valueCount = (template: WriteTemplate): number => {
  let count = valueCounts.get(template);
  if (count === undefined) {
    count = 0;
    for (const sql of [...template.statements, template.requirement ?? '', template.result ?? '']) {
      for (const [, n] of sql.matchAll(/\$(\d+)/g)) count = Math.max(count, Number(n));
    }
    valueCounts.set(template, count);
  }
  return count;
};

// Batches take a few shapes (a create with or without documents, a claim, a webhook job): each is
// prepared once per connection. More than this many shapes means shapes that vary: sent unnamed.
const MAX_PREPARED_BATCH_SHAPES = 256;
const preparedShapes = new Map<string, ReturnType<typeof preparedStatement>>();

/** The one statement that runs `writes` (in order) and checks their requirements. */
export const batchStatement = (
  tables: KitTables,
  writes: readonly BatchedWrite[],
): QueryConfig<unknown[]> => {
  const key = `${tables.schema} ${writes.map((write) => templateNumber(write.template)).join(',')}`;
  let prepared = preparedShapes.get(key);
  if (prepared === undefined) {
    const text = combinedText(
      tables,
      writes.map((write) => write.template),
    );
    if (preparedShapes.size >= MAX_PREPARED_BATCH_SHAPES) return { text, values: writeValues(writes) };
    prepared = preparedStatement(text, 'okit_b_');
    preparedShapes.set(key, prepared);
  }
  return prepared(writeValues(writes));
};

const writeValues = (writes: readonly BatchedWrite[]): unknown[] => {
  const values: unknown[] = [];
  for (const write of writes) {
    const expected = valueCount(write.template);
    if (write.values.length !== expected) {
      throw new TypeError(`a batched write takes ${expected} values, got ${write.values.length}`);
    }
    for (const value of write.values) values.push(value);
  }
  return values;
};

/** What the statement answered for the write at `position` (its `result`). */
export const batchResult = (row: QueryResultRow | undefined, position: number): unknown =>
  row?.[`r${position}`];
