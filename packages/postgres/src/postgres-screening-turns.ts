import type { KitTables } from './kit-tables.js';
import type { Queryable } from './sql-session.js';

/**
 * Fair turns on the screening queue. pg-boss fetches the highest priority first, then the oldest;
 * every job is sent with priority 0. Before each fetch, the runner gives each job not ranked yet
 * (priority 0) its place in its manager's line: the k-th queued job of a manager gets a priority
 * below that manager's lowest queued one, so the queue serves managers in turn (each manager's
 * first job, then each one's second …) instead of in arrival order, and a burst of one manager's
 * jobs cannot hold another's single job back. A manager's jobs keep their order among themselves.
 * Monitoring jobs (no client) take turns as one more line. The job's manager is its client's;
 * a job whose client is gone takes the line of no manager.
 *
 * The ranks a pass gives never change afterwards, and a line whose jobs all ran starts again at
 * -1. Several runners ranking at once skip the rows another is ranking (SKIP LOCKED): a job is
 * ranked once. This writes pg-boss's own `priority` column, the one its `send` option sets.
 */
export const rankScreeningJobsStatement = (tables: KitTables, queue: string) => {
  const job = `${tables.jobSchema}.job`;
  const lineOf = (alias: string) =>
    `COALESCE((SELECT c.manager_id FROM ${tables.clients} c
       WHERE ${alias}.data->>'type' = 'screen-client' AND c.id = (${alias}.data->>'clientId')::uuid), '')`;
  return {
    text: `WITH unranked AS (
        SELECT j.id, j.created_on, ${lineOf('j')} AS line
        FROM ${job} j
        WHERE j.name = '${queue}' AND j.state < 'active' AND j.priority = 0
        ORDER BY j.created_on, j.id
        LIMIT 1000
        FOR UPDATE OF j SKIP LOCKED
      ), lowest AS (
        SELECT ${lineOf('q')} AS line, min(q.priority) AS priority
        FROM ${job} q
        WHERE q.name = '${queue}' AND q.state < 'active' AND q.priority < 0
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

/** Ranks the screening jobs not ranked yet (`rankScreeningJobsStatement`); resolves to how many. */
export const rankScreeningJobs = async (db: Queryable, tables: KitTables, queue: string): Promise<number> => {
  const result = await db.query(rankScreeningJobsStatement(tables, queue).text);
  return result.rowCount ?? 0;
};
