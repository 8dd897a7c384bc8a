import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { signalGroup, spawnInGroup } from '../../../test-support/process-groups.js';

/** The contract the outside check relies on: `pnpm --filter host-app start` serves on PORT, self-seeded. */

const appRoot = fileURLToPath(new URL('../', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

const children: Array<ReturnType<typeof spawnInGroup>> = [];
afterAll(() => {
  for (const child of children) signalGroup(child, 'SIGKILL');
});

test('the start script serves the portal on PORT, seeded, and stops on SIGTERM', async () => {
  const port = await freePort();
  // As the start script runs it: one node process (`node --import tsx`). tsx's CLI wrapper relayed
  // SIGTERM and, on a loaded machine, killed the portal mid-shutdown (exit 143).
  const child = spawnInGroup(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: appRoot,
    env: { ...process.env, PORT: String(port), TSX_TSCONFIG_PATH: join(repositoryRoot, 'tsconfig.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!output.includes('"portal listening"')) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the portal did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const answer = await fetch(`http://127.0.0.1:${port}/onboarding/manager/v1/clients`, {
    headers: { Authorization: 'Bearer demo-session-manager-a' },
  });
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  const fees = await fetch(`http://127.0.0.1:${port}/onboarding/manager/v1/preset-fees`, {
    headers: { Authorization: 'Bearer demo-session-manager-b' },
  });
  expect(fees.status).toBe(200);
  // Every line it wrote is a JSON object.
  for (const line of output.split('\n').filter((text) => text.startsWith('{'))) {
    expect(() => JSON.parse(line)).not.toThrow();
  }
  signalGroup(child, 'SIGTERM');
  expect(await exited).toBe(0);
}, 60_000);
