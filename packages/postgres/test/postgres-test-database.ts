import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { grantServingRole } from '../src/grant-serving-role.js';
import { type KitTables, kitTables } from '../src/kit-tables.js';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters, type PostgresAdapters } from '../src/postgres-adapters.js';
import { createFreshDatabase, openTestDatabase } from '../test-support/embedded-postgres-server.js';
import { workerDatabasePrefix } from './global-setup.js';

export type MigratedDatabase = {
  /**
   * The file's own database, on this worker's server (a copy of its migrated template), as the
   * role the kit serves as: granted by `grantServingRole`, as a host that passes
   * `startPostgresOnboardingKit` a `migrationPool` serves. Every test through `pool` and `adapters`
   * so checks that the least-privilege role can do all the kit does.
   */
  readonly connectionString: string;
  /** The same database as the tables' owner (`ownerPool`'s). */
  readonly ownerConnectionString: string;
  /** As the serving role (`connectionString`); `adapters` are made on it. */
  readonly pool: pg.Pool;
  /**
   * As the tables' owner, who migrated them: for what a test does behind the kit's back that the
   * serving role may not (rewrite an audit entry, switch a trigger off, delete a history row).
   */
  readonly ownerPool: pg.Pool;
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
 * This worker's database, made on first use. The files of one worker run one after the other on
 * its server: in databases of their own (`openMigratedDatabase`), or in schemas of their own in this
 * one (the files that migrate or start the kit themselves); files of two workers never share a
 * PostgreSQL server. Some files need that: a database-wide VACUUM ANALYZE,
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

/** The schema of the worker's template, so of every database copied from it. */
const templateSchema = 'kit_test';

/** The database named `name` on the server of `url`. */
const databaseUrl = (url: string, name: string): string => {
  const located = new URL(url);
  located.pathname = `/${name}`;
  return located.toString();
};

/**
 * The worker's template, and how to copy it: file by file where the server can (PostgreSQL 15+);
 * with the login of the role its copies are served as.
 */
type Template = {
  readonly name: string;
  readonly strategy: string;
  readonly servingRole: { readonly name: string; readonly password: string };
};
let workerTemplate: Promise<Template> | undefined;

/**
 * This worker's template: a database of its server with the kit migrated into `templateSchema`,
 * made on first use; nothing connects to it afterwards (PostgreSQL copies only a database nobody is
 * connected to). Its name extends the worker database's, which the global setup drops by prefix.
 */
const migratedTemplate = (): Promise<Template> => {
  workerTemplate ??= (async () => {
    const workerUrl = await workerDatabaseUrl();
    const name = `${new URL(workerUrl).pathname.slice(1)}_t`;
    const admin = new pg.Client({ connectionString: workerUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    let version: number;
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
      version = Number(
        (await admin.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]?.v,
      );
    } finally {
      await admin.end();
    }
    // A role of the server, named after the worker's database (dropped with it: global-setup.ts).
    const servingRole = { name: `${name}_serving`, password: randomBytes(12).toString('hex') };
    const pool = new pg.Pool({ connectionString: databaseUrl(workerUrl, name), max: 1 });
    try {
      const migrated = await migrate(pool, { schema: templateSchema });
      if (migrated.isErr())
        throw new Error(`migrate failed: ${JSON.stringify(migrated.error)}`, { cause: migrated.error });
      await pool.query(
        `CREATE ROLE ${pg.escapeIdentifier(servingRole.name)} LOGIN PASSWORD ${pg.escapeLiteral(servingRole.password)}`,
      );
      const granted = await grantServingRole(pool, { role: servingRole.name, schema: templateSchema });
      if (granted.isErr())
        throw new Error(`grantServingRole failed: ${JSON.stringify(granted.error)}`, {
          cause: granted.error,
        });
    } finally {
      await pool.end();
    }
    // A file copy (a checkpoint, then the files) cost half the CPU of the WAL-logged copy
    // PostgreSQL 15+ makes by default: 0.04 against 0.08 s (docs/performance.md).
    return { name, strategy: version >= 150_000 ? ' STRATEGY FILE_COPY' : '', servingRole };
  })();
  return workerTemplate;
};

/**
 * A pool on a database of its own on this worker's server, with the kit migrated: a copy of the
 * worker's migrated template (`CREATE DATABASE … TEMPLATE`, 0.04 CPU s of PostgreSQL against 0.15 s
 * of PostgreSQL and 0.04 s of node to migrate a fresh schema: docs/performance.md).
 */
export const openMigratedDatabase = async (
  options: { pool?: pg.PoolConfig } = {},
): Promise<MigratedDatabase> => {
  const template = await migratedTemplate();
  const workerUrl = await workerDatabaseUrl();
  const name = `${new URL(workerUrl).pathname.slice(1)}_f${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: workerUrl });
  // A server stopped meanwhile fails the awaited statement, not the test run.
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template.name}"${template.strategy}`);
  } finally {
    await admin.end();
  }
  const ownerConnectionString = databaseUrl(workerUrl, name);
  const serving = new URL(ownerConnectionString);
  serving.username = template.servingRole.name;
  serving.password = template.servingRole.password;
  const connectionString = serving.toString();
  const { pool, queryCount, recentStatements } = countingPool(connectionString, options.pool);
  const ownerPool = new pg.Pool({ connectionString: ownerConnectionString, max: 2 });
  ownerPool.on('error', () => undefined);
  const schema = templateSchema;
  return {
    connectionString,
    ownerConnectionString,
    pool,
    ownerPool,
    schema,
    tables: kitTables(schema),
    adapters: createPostgresAdapters({ pool, schema }),
    queryCount,
    recentStatements,
    close: async () => {
      await Promise.all([pool.end(), ownerPool.end()]);
    },
  };
};

/**
 * Every row of the kit's schema and of its job schema, each cast to text and prefixed with its
 * table's name, one per line: what an erasure test searches for data that must be gone.
 */
export const everyRowAsText = async (database: MigratedDatabase): Promise<string> => {
  const tables = await database.pool.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema IN ($1, $2)`,
    [database.schema, database.tables.jobSchema],
  );
  const texts: string[] = [];
  for (const { table_schema, table_name } of tables.rows) {
    const rows = await database.pool.query<{ row: string }>(
      `SELECT t::text AS row FROM ${pg.escapeIdentifier(table_schema)}.${pg.escapeIdentifier(table_name)} t`,
    );
    texts.push(...rows.rows.map(({ row }) => `${table_name}: ${row}`));
  }
  return texts.join('\n');
};
