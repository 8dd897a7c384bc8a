import PgBoss from 'pg-boss';
import { preparedStatement, type Queryable } from './sql-session.js';

/** The queue of webhook jobs (`WebhookJob`: deliver a command's events, attempt one delivery). */
export const webhookQueue = 'onboarding-kit-webhooks';
/** The queue of screening jobs (`ScreeningJob`: screen one client), retried with back-off. */
export const screeningQueue = 'onboarding-kit-screening';
/** Queues of the periodic work, each fed by a pg-boss schedule (one run per tick across instances). */
export const idempotencyPurgeQueue = 'onboarding-kit-idempotency-purge';
export const orphanSweepQueue = 'onboarding-kit-orphan-sweep';
export const retentionRedactionQueue = 'onboarding-kit-retention-redaction';

/**
 * How long a webhook job may stay active before the job engine takes it for abandoned (its
 * process died) and runs it again; longer than any job's attempts (each bounded by the kit's
 * attempt timeout, 10 s by default, all of a job's attempts run at once).
 */
export const defaultWebhookJobExpirySeconds = 60;

/** pg-boss's way into a database: every statement through `db` (the pool, or a transaction's client). */
export const jobEngineDatabase = (db: Queryable): PgBoss.Db => ({
  executeSql: async (text, values) => {
    const result = await db.query(text, values);
    return { rows: result.rows };
  },
});

// pg-boss's statements are a few fixed texts per schema; more than this many means texts that vary.
const MAX_PREPARED_JOB_ENGINE_STATEMENTS = 64;
const preparedJobEngineStatements = new Map<string, ReturnType<typeof preparedStatement>>();

/**
 * Like `jobEngineDatabase`, but each of pg-boss's statement texts is a named prepared statement,
 * parsed and planned once per connection: its job insert (an INSERT … SELECT of 19 parameters
 * with CASEs) otherwise cost PostgreSQL a parse and a plan in every command that sends a job.
 */
export const preparedJobEngineDatabase = (db: Queryable): PgBoss.Db => ({
  executeSql: async (text, values = []) => {
    let statement = preparedJobEngineStatements.get(text);
    // Its maintenance sends several commands in one text (BEGIN; …; COMMIT): those cannot be prepared.
    if (
      statement === undefined &&
      !text.includes(';') &&
      preparedJobEngineStatements.size < MAX_PREPARED_JOB_ENGINE_STATEMENTS
    ) {
      statement = preparedStatement(text);
      preparedJobEngineStatements.set(text, statement);
    }
    const result = await (statement === undefined ? db.query(text, values) : db.query(statement(values)));
    return { rows: result.rows };
  },
});

/** A pg-boss instance over the kit's pool (or a way into it), on the kit's job schema; started only by a runner. */
export const createJobEngine = (
  pool: Queryable,
  jobSchema: string,
  options: PgBoss.ConstructorOptions = {},
): PgBoss => new PgBoss({ ...options, db: preparedJobEngineDatabase(pool), schema: jobSchema });

/**
 * Installs or upgrades pg-boss's schema and creates the kit's queues. Part of `migrate`, on the
 * connection that holds its advisory lock, so concurrent instances install one after the other.
 */
export const installJobEngine = async (db: Queryable, jobSchema: string): Promise<void> => {
  const boss = new PgBoss({
    db: jobEngineDatabase(db),
    schema: jobSchema,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
    for (const name of [
      webhookQueue,
      screeningQueue,
      idempotencyPurgeQueue,
      orphanSweepQueue,
      retentionRedactionQueue,
    ]) {
      if (!existing.has(name))
        await boss.createQueue(name, { name, retryLimit: 20, retryDelay: 1, retryBackoff: true });
    }
  } finally {
    await boss.stop({ graceful: false, close: false, wait: true });
  }
};
