import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Waits until the output matches, or fails with what was printed. */
const waitForOutput = (read: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = pattern.exec(read());
      if (found !== null) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > timeoutMs || child?.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`no ${pattern} in the demo's output:\n${read()}`));
      }
    }, 50);
  });

test('the root command starts the demo, prints the keys and a walkthrough, and stops cleanly on SIGTERM', async () => {
  const { DATABASE_URL: _database, S3_BUCKET: _bucket, S3_ENDPOINT: _endpoint, ...environment } = process.env;
  // What `pnpm demo` runs (package.json), on a free port.
  child = spawn(
    join(repositoryRoot, 'node_modules/.bin/tsx'),
    ['--tsconfig', 'tsconfig.json', 'examples/demo/src/main.ts'],
    { cwd: repositoryRoot, env: { ...environment, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));

  const [, origin] = await waitForOutput(() => output, /listening on (http:\/\/localhost:\d+)/, 30_000);
  await waitForOutput(() => output, /README\.md, "Walkthrough \(curl\)"/, 5_000);
  for (const key of [
    'demo-manager-a-key',
    'demo-manager-b-key',
    'demo-client-a1-key',
    'demo-compliance-key',
  ]) {
    expect(output).toContain(key);
  }
  const fees = await fetch(`${origin}/manager/v1/preset-fees`, {
    headers: { SERVICE_API_KEY: 'demo-manager-a-key' },
  });
  expect(fees.status).toBe(200);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).toContain('SIGTERM: stopping the demo');
  await expect(fetch(`${origin}/openapi.json`)).rejects.toThrow();
});
