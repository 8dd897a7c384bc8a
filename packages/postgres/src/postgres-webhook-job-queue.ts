import { storageUnavailable, type WebhookJob, type WebhookJobQueue } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import type PgBoss from 'pg-boss';
import type { KitTables } from './kit-tables.js';
import { preparedJobEngineDatabase, webhookQueue } from './postgres-job-engine.js';
import { preparedStatement, type Queryable, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** The job engine a transaction's webhook jobs are sent to, and how long a job may stay active. */
export type TransactionJobs = {
  readonly boss: PgBoss;
  readonly jobExpirySeconds: number;
  /** Each manager's last turn on the webhook queue, as this kit sends (`managersTurn`). */
  readonly managerTurns: Map<string, number>;
};

/**
 * Managers take turns on the webhook queue at no cost to a fetch: pg-boss fetches the highest
 * priority first, then the oldest, and each job is sent with its turn as its priority (negated).
 * A turn is a second: a manager's job takes the later of now and one past its manager's last turn,
 * so a burst of one manager spreads one job a second into the future while another manager's job
 * takes now, ahead of all of the burst but what came before it. An attempt's job (a retry, a
 * redelivery, one put off) takes the second it is due. Turns are kept by the kit that sends
 * (`TransactionJobs.managerTurns`, as the attempt slots are): processes sending for the same manager each spread their own share.
 * Compared: ranking the queued jobs before each fetch (36fcc2f, reverted: it cost more than the
 * queue drained), a singleton key per manager (holds a manager to one queued job, not a turn).
 */
const TURN_EPOCH_MS = Date.UTC(2026, 0, 1);
const turnOf = (ms: number) => Math.floor((ms - TURN_EPOCH_MS) / 1000);
const managersTurn = (lastTurns: Map<string, number>, managerId: string, nowMs: number): number => {
  const now = turnOf(nowMs);
  const turn = Math.max(now, (lastTurns.get(managerId) ?? now - 1) + 1);
  // Forget the managers whose turns have passed (they take now again) once many are kept.
  if (lastTurns.size >= 10_000) for (const [id, last] of lastTurns) if (last < now) lastTurns.delete(id);
  lastTurns.set(managerId, turn);
  return turn;
};

/**
 * Sends `job` through `db` (the transaction's connection) with pg-boss's `insert`, not `send`: the
 * same row, but `send` checks and completes its options object (and binds 19 parameters) at every
 * call, Node CPU that every command with an endpoint paid (docs/performance.md, 2026-11-28).
 */
export const sendWebhookJob = (
  db: Queryable,
  { boss, jobExpirySeconds }: TransactionJobs,
  job: WebhookJob,
  startAfter?: Date,
  turn = turnOf((startAfter ?? new Date()).getTime()),
): Promise<unknown> =>
  boss.insert(
    [
      {
        name: webhookQueue,
        data: job,
        expireInSeconds: jobExpirySeconds,
        priority: -turn,
        ...(startAfter === undefined ? {} : { startAfter }),
      },
    ],
    { db: preparedJobEngineDatabase(db) },
  );

/**
 * Which of the managers have an endpoint: asked by every command with events, so named (parsed and
 * planned once per connection; unnamed, PostgreSQL parsed and planned it at every create).
 *
 * The managers pass through a LIMIT of the array's own length, as the claim on the uploads does
 * (postgres-document-index.ts): it changes no result, but a generic plan then counts one manager,
 * not the ten it assumes of an array parameter. Without it, a connection that first ran this while
 * the table was empty and never analyzed (a new database; a host with no endpoint yet, which
 * autovacuum never analyzes) planned it anew at every command for as long as it lived, ANALYZE or
 * not: 882 plans in 1,000 creates, 0.12 ms of PostgreSQL CPU each (docs/performance.md).
 */
const selectManagersWithEndpoint = statementsPerSchema((tables) =>
  preparedStatement(
    `SELECT DISTINCT manager_id FROM ${tables.webhookEndpoints}
     WHERE manager_id = ANY(ARRAY(SELECT unnest($1::text[]) LIMIT cardinality($1::text[])))`,
  ),
);

/**
 * Webhook jobs on pg-boss, sent through the command's own transaction so that they commit (or roll
 * back) with it. A command's events become one job, with the events of the managers that have an
 * endpoint, and none when no manager has one.
 */
export const createPostgresWebhookJobQueue = (
  db: SqlSession,
  tables: KitTables,
  jobs: TransactionJobs,
): WebhookJobQueue => ({
  enqueueEventDeliveries: (events) => {
    if (events.length === 0) return okAsync(undefined);
    const send = async () => {
      const managers = [...new Set(events.map(({ managerId }) => managerId))];
      const { rows } = await db.query<{ manager_id: string }>(selectManagersWithEndpoint(tables)([managers]));
      const withEndpoint = new Set(rows.map((row) => row.manager_id));
      const delivered = events.filter(({ managerId }) => withEndpoint.has(managerId));
      const [first] = delivered;
      if (first === undefined) return;
      const eventIds = delivered.map(({ event }) => event.id);
      const turn = managersTurn(jobs.managerTurns, first.managerId, Date.now());
      await sendWebhookJob(db, jobs, { type: 'deliver-events', eventIds }, undefined, turn);
    };
    return ResultAsync.fromPromise(send(), unavailable);
  },
  enqueueAttempt: (deliveryId, runAt) =>
    ResultAsync.fromPromise(
      sendWebhookJob(db, jobs, { type: 'attempt-delivery', deliveryId }, runAt),
      unavailable,
    ).map(() => undefined),
  enqueueAttempts: (deliveries, runAt) =>
    ResultAsync.fromPromise(
      sendWebhookJob(db, jobs, { type: 'attempt-deliveries', deliveries: [...deliveries] }, runAt),
      unavailable,
    ).map(() => undefined),
});
