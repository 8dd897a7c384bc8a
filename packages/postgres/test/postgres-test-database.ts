import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type KitTables, kitTables } from '../src/kit-tables.js';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters, type PostgresAdapters } from '../src/postgres-adapters.js';
import { createFreshDatabase, openTestDatabase } from '../test-support/embedded-postgres-server.js';
import { workerDatabasePrefix } from './global-setup.js';

export type MigratedDatabase = {
  /** The database the schema lives in (this worker's: workerDatabaseUrl). */
  readonly connectionString: string;
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly tables: KitTables;
  readonly adapters: PostgresAdapters;
  /** SQL statements sent through `pool` so far (every client.query, BEGIN and COMMIT included). */
  queryCount(): number;
  /** The last statements sent through `pool`, oldest first (at most 50). */
  recentStatements(): readonly SentStatement[];
  close(): Promise<void>;
};

export type SentStatement = {
  readonly text: string;
  readonly values: readonly unknown[];
  /** The prepared statement's name; absent for a statement PostgreSQL plans at each execution. */
  readonly name?: string;
};

export const newSchemaName = (): string => `kit_${randomBytes(5).toString('hex')}`;

let workerDatabase: Promise<string> | undefined;

/**
 * This worker's database, made on first use. The files of one worker run one after the other and
 * share it (each in schemas of its own), as the whole project once did in a single worker; files of
 * two workers never share a PostgreSQL server. Some files need that: a database-wide VACUUM ANALYZE,
 * query plans that hold only while no other transaction is open (an open snapshot keeps VACUUM from
 * marking pages all-visible), and the event feed, which lists an event once every transaction older
 * than it has ended, in any database of the server. So each worker starts an embedded server of its
 * own (killed and deleted when the worker ends: test-support/process-groups.ts); with DATABASE_URL
 * set, it makes a database of its own there instead (dropped by the global setup).
 */
export const workerDatabaseUrl = (): Promise<string> => {
  const runDatabaseUrl = inject('postgresUrl');
  workerDatabase ??=
    runDatabaseUrl === ''
      ? openTestDatabase('').then((database) => database.connectionString)
      : createFreshDatabase(runDatabaseUrl, workerDatabasePrefix(runDatabaseUrl));
  return workerDatabase;
};

/**
 * A pool on `connectionString` whose clients count every statement they send, so round trips are
 * measured on the wire side of node-postgres, not guessed.
 */
export const countingPool = (
  connectionString: string,
  config: pg.PoolConfig = {},
): { pool: pg.Pool; queryCount: () => number; recentStatements: () => readonly SentStatement[] } => {
  let queries = 0;
  const recent: SentStatement[] = [];
  class CountingClient extends pg.Client {}
  const send = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  (CountingClient.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    queries += 1;
    const [statement, values] = args;
    const sent =
      typeof statement === 'string'
        ? { text: statement, values: Array.isArray(values) ? values : [] }
        : (statement as { text: string; values?: unknown[]; name?: string });
    recent.push({
      text: sent.text,
      values: sent.values ?? [],
      ...('name' in sent && sent.name !== undefined ? { name: sent.name } : {}),
    });
    if (recent.length > 50) recent.shift();
    return send.apply(this, args);
  };
  const pool = new pg.Pool({
    connectionString,
    max: 8,
    ...config,
    Client: CountingClient,
  });
  return { pool, queryCount: () => queries, recentStatements: () => [...recent] };
};

/** A pool on this worker's database with the kit migrated into a schema of its own. */
export const openMigratedDatabase = async (
  options: { schema?: string; pool?: pg.PoolConfig } = {},
): Promise<MigratedDatabase> => {
  const schema = options.schema ?? newSchemaName();
  const connectionString = await workerDatabaseUrl();
  const { pool, queryCount, recentStatements } = countingPool(connectionString, options.pool);
  const migrated = await migrate(pool, { schema });
  if (migrated.isErr()) {
    await pool.end();
    throw new Error(`migrate failed: ${JSON.stringify(migrated.error)}`, { cause: migrated.error });
  }
  return {
    connectionString,
    pool,
    schema,
    tables: kitTables(schema),
    adapters: createPostgresAdapters({ pool, schema }),
    queryCount,
    recentStatements,
    close: () => pool.end(),
  };
};
