import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { Pool, PoolClient } from 'pg';
import { defaultSchema, type KitTables, kitTables } from './kit-tables.js';
import { installJobEngine } from './postgres-job-engine.js';
import { checkOut } from './sql-session.js';

/** A migration file that PostgreSQL refused; nothing of that file was applied. */
export type MigrationFailed = {
  readonly type: 'MigrationFailed';
  readonly migration: string;
  readonly cause: unknown;
};

export type MigrateOptions = {
  /** Schema holding the kit's tables (created when absent). Default `onboarding_kit`. */
  readonly schema?: string;
  /** Folder of `.sql` files applied in name order. Default: the `migrations/` folder shipped in the package. */
  readonly migrationsDirectory?: string;
};

export type MigrateOutcome = {
  /** Files applied by this call, in order (empty when the schema was already current). */
  readonly applied: readonly string[];
};

// Works from src/ (tests) and from dist/ (the published build): both sit beside migrations/.
const shippedMigrations = (): string => fileURLToPath(new URL('../migrations/', import.meta.url));

/**
 * Brings the schema up to date, then installs (or upgrades) the job engine's schema, `<schema>_jobs`. Several instances may start at once: they queue on one
 * transaction-independent advisory lock keyed by the schema name, so each file runs exactly once,
 * in its own transaction, and is recorded in `schema_migrations`.
 */
export const migrate = (
  pool: Pool,
  options: MigrateOptions = {},
): ResultAsync<MigrateOutcome, MigrationFailed | StorageUnavailable> => {
  const tables = kitTables(options.schema ?? defaultSchema);
  const directory = options.migrationsDirectory ?? shippedMigrations();
  return ResultAsync.fromPromise(
    applyPending(pool, tables, directory),
    storageUnavailable('postgres'),
  ).andThen((outcome) => outcome);
};

const applyPending = async (
  pool: Pool,
  tables: KitTables,
  directory: string,
): Promise<Result<MigrateOutcome, MigrationFailed>> => {
  const files = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const lockName = `onboarding-kit:migrate:${tables.schema}`;
  const { client, release } = await checkOut(pool);
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    const outcome = await applyUnderLock(client, tables, directory, files);
    if (outcome.isOk()) await installJobEngine(client, tables.jobSchema);
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
    release();
    return outcome;
  } catch (failure) {
    // Closing the session ends any open transaction and frees the advisory lock with it.
    release(failure);
    throw failure;
  }
};

const applyUnderLock = async (
  client: PoolClient,
  tables: KitTables,
  directory: string,
  files: readonly string[],
): Promise<Result<MigrateOutcome, MigrationFailed>> => {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.quotedSchema}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
       name text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const done = new Set(
    (await client.query<{ name: string }>(`SELECT name FROM ${tables.migrations}`)).rows.map(
      (row) => row.name,
    ),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(`${directory}/${file}`, 'utf8');
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL search_path TO ${tables.quotedSchema}`);
      await client.query(sql);
      await client.query(`INSERT INTO ${tables.migrations} (name) VALUES ($1)`, [file]);
      await client.query('COMMIT');
    } catch (cause) {
      await client.query('ROLLBACK');
      return err({ type: 'MigrationFailed', migration: file, cause });
    }
    applied.push(file);
  }
  return ok({ applied });
};
