import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  releaseFromEventLoop,
  removeOnExit,
  spawnInGroup,
  stopGroup,
} from '../../../test-support/process-groups.js';
import { leaseServer } from '../../../test-support/shared-servers.js';
import { buildWithSourcesInPlace } from '../../../test-support/sources-in-place-build.js';

/** A port nothing listens on right now (the OS picks it, we release it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** A server in a child process of its own (its process group is killed with this process). */
export type RunningServer = { readonly endpoint: string; readonly stop: () => Promise<void> };

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The last lines a child printed, for the error that says why it did not start. */
const keepTail = (child: ChildProcess): (() => string) => {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4_000);
  });
  return () => tail;
};

const running = (child: ChildProcess, endpoint: string, stopped = async () => {}): RunningServer => {
  releaseFromEventLoop(child);
  return {
    endpoint,
    stop: async () => {
      await stopGroup(child, 'SIGTERM');
      await stopped();
    },
  };
};

/**
 * s3rver-process.ts compiled into `directory` (test-support/sources-in-place-build.ts; its packages
 * are imported from node_modules as they are): `node --import tsx` spent 1.0-1.4 CPU s a start on
 * loading tsx and transpiling through its hooks, the built file 0.6 s, and the build 0.02-0.3 s.
 */
const buildS3rverProcess = async (directory: string): Promise<string> => {
  const built = await buildWithSourcesInPlace(
    { 's3rver-process': 'packages/s3/test/s3rver-process.ts' },
    directory,
  );
  return built['s3rver-process'];
};

/**
 * s3rver on a free port, in a child process (see s3rver-process.ts), from a fresh temporary
 * directory that holds its compiled script and the store it serves; the directory is deleted when
 * the server stops or fails to start, and when this process dies, however it dies.
 */
const startOwnS3rver = async (): Promise<RunningServer> => {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const forgetDirectory = removeOnExit(directory);
  const removeDirectory = async () => {
    await rm(directory, { recursive: true, force: true });
    forgetDirectory();
  };
  const store = join(directory, 'store');
  let script: string;
  try {
    await mkdir(store);
    script = await buildS3rverProcess(join(directory, 'process'));
  } catch (error) {
    await removeDirectory();
    throw new Error(`s3rver could not be built: ${(error as Error).message}`, { cause: error });
  }
  return new Promise<RunningServer>((resolve, reject) => {
    const args = ['--openssl-legacy-provider', script, store];
    const child = spawnInGroup(
      process.execPath,
      args,
      { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      { directory },
    );
    const stderr = keepTail(child);
    let settled = false;
    const failed = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const error = new Error(`s3rver ${why}\n${stderr()}`);
      void stopGroup(child, 'SIGKILL')
        .then(removeDirectory)
        .finally(() => reject(error));
    };
    const timer = setTimeout(() => failed('did not start within 30 s'), 30_000);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /^\{"port":(\d+)\}$/m.exec(output);
      if (settled || line === null) return;
      settled = true;
      clearTimeout(timer);
      resolve(running(child, `http://127.0.0.1:${line[1]}`, removeDirectory));
    });
    child.once('error', (error) => failed(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => failed(`exited (${signal ?? code}) before listening`));
  });
};

const waitUntilAnswering = async (endpoint: string, child: ChildProcess, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`moto_server exited (${child.signalCode ?? child.exitCode}) before answering`);
    }
    const answered = await fetch(endpoint).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`moto_server did not answer at ${endpoint} within ${timeoutMs} ms`);
};

/** moto_server (Python) as a child process: the server with lifecycle configuration. */
const startOwnMotoServer = async (): Promise<RunningServer> => {
  const port = await freePort();
  const child = spawnInGroup('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr = keepTail(child);
  const spawnFailure = new Promise<never>((_resolve, reject) =>
    child.once('error', (error) =>
      reject(
        new Error(
          `moto_server could not start: ${error.message}` +
            ((error as NodeJS.ErrnoException).code === 'ENOENT'
              ? ` (moto_server is not on the PATH: the S3 and demo tests need it; pip install 'moto[server]')`
              : ''),
        ),
      ),
    ),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([waitUntilAnswering(endpoint, child, 30_000), spawnFailure]);
  } catch (error) {
    await stopGroup(child, 'SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr()}`, { cause: error });
  }
  return running(child, endpoint);
};

/**
 * The process's s3rver and moto_server, started by the first caller and stopped with the last
 * `stop` (the s3, demo and review-console-browser projects' global setups share them; tests use
 * buckets of their own names). See test-support/shared-servers.ts.
 */
export const startS3rver = (): Promise<RunningServer> => leaseServer('s3rver', startOwnS3rver);
export const startMotoServer = (): Promise<RunningServer> => leaseServer('moto_server', startOwnMotoServer);
