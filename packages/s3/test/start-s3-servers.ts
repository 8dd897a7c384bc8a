import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

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

const stopper = (child: ChildProcess) => async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** s3rver on a free port with a fresh temporary directory, in a child process (see s3rver-process.ts). */
export const startS3rver = (): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL('./s3rver-process.ts', import.meta.url));
    const child = spawn(process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', script], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('s3rver did not start within 30 s'));
    }, 30_000);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /^\{"port":(\d+)\}$/m.exec(output);
      if (line === null) return;
      clearTimeout(timer);
      resolve({ endpoint: `http://127.0.0.1:${line[1]}`, stop: stopper(child) });
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with code ${code} before listening`));
    });
  });

const waitUntilAnswering = async (endpoint: string, child: ChildProcess, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with code ${child.exitCode}`);
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
  return { endpoint, stop: stopper(child) };
};
