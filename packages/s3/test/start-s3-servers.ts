import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

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

export type RunningServer = { readonly endpoint: string; readonly stop: () => Promise<void> };

/** s3rver in-process, on a free port, storing in a fresh temporary directory. */
export const startS3rver = async (): Promise<RunningServer> => {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};

const waitUntilAnswering = async (endpoint: string, process: ChildProcess, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`moto_server exited with code ${process.exitCode}`);
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
export const startMotoServer = async (): Promise<RunningServer> => {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const spawnFailure = new Promise<never>((_resolve, reject) => child.once('error', reject));
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([waitUntilAnswering(endpoint, child, 30_000), spawnFailure]);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
};
