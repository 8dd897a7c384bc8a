import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openTestDatabase } from '../test-support/embedded-postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A fresh, empty database of this run on DATABASE_URL's server (not migrated), in which each
     * worker makes a database of its own; '' without DATABASE_URL: each worker starts its own
     * embedded server (postgres-test-database.ts says why).
     */
    postgresUrl: string;
  }
}

/** The prefix of the run's worker databases (postgres-test-database.ts), dropped at the end. */
export const workerDatabasePrefix = (runDatabaseUrl: string): string =>
  `${new URL(runDatabaseUrl).pathname.slice(1)}_w`;

/**
 * Drops the worker databases, then the roles named after them (the role each worker's copies are
 * served as): on DATABASE_URL's server nothing else would.
 */
const dropWorkerDatabases = async (runDatabaseUrl: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: runDatabaseUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [workerDatabasePrefix(runDatabaseUrl)],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
    const roles = await admin.query<{ rolname: string }>(
      'SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)',
      [workerDatabasePrefix(runDatabaseUrl)],
    );
    for (const { rolname } of roles.rows)
      await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(rolname)}`);
  } finally {
    await admin.end();
  }
};

/**
 * On DATABASE_URL's server, a database of the run (the workers' are made from it), dropped at the
 * end with the workers' databases. Without DATABASE_URL, nothing: each worker starts its own server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl === undefined || serverUrl === '') {
    project.provide('postgresUrl', '');
    return async () => {};
  }
  const database = await openTestDatabase(serverUrl);
  project.provide('postgresUrl', database.connectionString);
  return async () => {
    try {
      await dropWorkerDatabases(database.connectionString);
    } finally {
      await database.close();
    }
  };
}
