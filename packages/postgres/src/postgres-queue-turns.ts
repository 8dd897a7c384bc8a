import type { KitTables } from './kit-tables.js';
import type { Queryable } from './sql-session.js';

/** The SQL of a queued job's line (its manager, or '' for none), for the job row `alias`. */
export type JobLine = (tables: KitTables, alias: string) => string;

/**
 * A screening job's line is its client's manager; monitoring jobs (no client) take turns as one
 * more line, and so does a job whose client is gone.
 */
export const screeningJobLine: JobLine = (tables, alias) =>
  `COALESCE((SELECT c.manager_id FROM ${tables.clients} c
     WHERE ${alias}.data->>'type' = 'screen-client' AND c.id = (${alias}.data->>'clientId')::uuid), '')`;

/**
 * A webhook job's line is the manager of its first event (`deliver-events`: a command's events
 * are its manager's), sent beside the job (a lookup per queued job cost 65 ms a pass behind a
 * backlog of 4,000), else of its first delivery (the attempts).
 */
export const webhookJobLine: JobLine = (tables, alias) =>
  `COALESCE(${alias}.data->>'managerId', CASE WHEN ${alias}.data->>'type' = 'deliver-events'
     THEN (SELECT e.manager_id FROM ${tables.events} e WHERE e.event_id = (${alias}.data->'eventIds'->>0)::uuid)
     ELSE (SELECT d.manager_id FROM ${tables.webhookDeliveries} d
       WHERE d.id = COALESCE(${alias}.data->>'deliveryId', ${alias}.data->'deliveries'->0->>'deliveryId')::uuid)
   END, '')`;

/**
 * Fair turns on a job queue (screening, webhooks). pg-boss fetches the highest priority first, then
 * the oldest; every job is sent with priority 0. Before each fetch, the runner gives each job not
 * ranked yet (priority 0) its place in its line (`JobLine`: its manager): the k-th queued job of a
 * line gets a priority below that line's lowest queued one, so the queue serves managers in turn
 * (each manager's first job, then each one's second …) instead of in arrival order, and a burst of
 * one manager's jobs cannot hold another's single job back. A manager's jobs keep their order
 * among themselves.
 *
 * The ranks a pass gives never change afterwards, and a line whose jobs all ran starts again at
 * -1. Several runners ranking at once skip the rows another is ranking (SKIP LOCKED): a job is
 * ranked once. This writes pg-boss's own `priority` column, the one its `send` option sets.
 */
export const rankJobsInTurnsStatement = (tables: KitTables, queue: string, lineOf: JobLine) => {
  const job = `${tables.jobSchema}.job`;
  return {
    text: `WITH unranked AS (
        SELECT j.id, j.created_on, ${lineOf(tables, 'j')} AS line
        FROM ${job} j
        WHERE j.name = '${queue}' AND j.state < 'active' AND j.priority = 0
        ORDER BY j.created_on, j.id
        LIMIT 1000
        FOR UPDATE OF j SKIP LOCKED
      ), lowest AS (
        SELECT ${lineOf(tables, 'q')} AS line, min(q.priority) AS priority
        FROM ${job} q
        -- Read only when there is something to rank: each queued job's line is a lookup.
        WHERE q.name = '${queue}' AND q.state < 'active' AND q.priority < 0 AND EXISTS (SELECT 1 FROM unranked)
        GROUP BY 1
      ), ranked AS (
        SELECT u.id,
          COALESCE(l.priority, 0) - row_number() OVER (PARTITION BY u.line ORDER BY u.created_on, u.id) AS priority
        FROM unranked u LEFT JOIN lowest l ON l.line = u.line
      )
      UPDATE ${job} j SET priority = ranked.priority
      FROM ranked WHERE j.name = '${queue}' AND j.id = ranked.id`,
  };
};

/** Ranks the jobs of `queue` not ranked yet (`rankJobsInTurnsStatement`); resolves to how many. */
export const rankJobsInTurns = async (
  db: Queryable,
  tables: KitTables,
  queue: string,
  lineOf: JobLine,
): Promise<number> => {
  const result = await db.query(rankJobsInTurnsStatement(tables, queue, lineOf).text);
  return result.rowCount ?? 0;
};
