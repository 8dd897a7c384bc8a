import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, expect, test } from 'vitest';
import { signalGroup, spawnInGroup } from '../../../test-support/process-groups.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';

/**
 * README step 9 as the README writes it: its two commands, run from the repository's root in that
 * order (the receiver, then the demo with WEBHOOK_URL and WEBHOOK_SECRET), then a client created
 * through the demo reaches the receiver, which prints the event it verified. Only the ports change
 * (a free one for the receiver, PORT=0 for the demo: other tests may hold 3000 and 4000), and
 * `npx -y pnpm@<version>` runs as the installed pnpm of that same version.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const pnpmVersion = (
  JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { packageManager: string }
).packageManager.replace(/^pnpm@/, '');

/** The commands of the first `sh` block of step 9, without comments. */
const stepNineCommands = (): string[] => {
  const step = readme.slice(readme.indexOf('**9. Receive the events as signed webhooks'));
  const block = /```sh\n([\s\S]*?)```/.exec(step)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
};

const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

type Started = { child: ChildProcess; output: () => string };
const started: Started[] = [];

const run = (command: string, env: Readonly<Record<string, string>>): Started => {
  const {
    DATABASE_URL: _d,
    S3_BUCKET: _b,
    S3_ENDPOINT: _e,
    WEBHOOK_URL: _u,
    WEBHOOK_SECRET: _s,
    ...inherited
  } = process.env;
  const child = spawnInGroup('sh', ['-c', command], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  const process_ = { child, output: () => printed };
  started.push(process_);
  return process_;
};

const waitFor = (what: Started, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> =>
  new Promise((resolve, reject) => {
    const since = Date.now();
    const poll = setInterval(() => {
      const found = pattern.exec(what.output());
      if (found !== null) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - since > timeoutMs || what.child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`no ${pattern} in:\n${what.output()}`));
      }
    }, 100);
  });

afterAll(async () => {
  for (const { child } of started) signalGroup(child, 'SIGKILL');
  await Promise.all(
    started.map(({ child }) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve))
        : null,
    ),
  );
});

test('README step 9: the receiver, then the demo, then a create prints a verified client.created', async () => {
  const [receiverLine = '', demoLine = '', ...others] = stepNineCommands();
  expect(others).toEqual([]);
  const npxPnpm = `npx -y pnpm@${pnpmVersion} `;
  expect(receiverLine.startsWith(npxPnpm)).toBe(true);
  const demoCommand = /^((?:[A-Z_]+=\S+ )+)(.*)$/.exec(demoLine);
  expect(demoCommand?.[2]?.startsWith(npxPnpm)).toBe(true);
  const demoEnv = Object.fromEntries(
    (demoCommand?.[1] ?? '')
      .trim()
      .split(' ')
      .map((assignment) => assignment.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  expect(Object.keys(demoEnv).sort()).toEqual(['WEBHOOK_SECRET', 'WEBHOOK_URL']);
  expect(demoEnv.WEBHOOK_URL).toBe('http://localhost:4000/hooks'); // the receiver's default

  const port = await freePort();
  const hooksUrl = `http://localhost:${port}/hooks`;
  const receiver = run(receiverLine.replace(npxPnpm, 'pnpm '), { WEBHOOK_URL: hooksUrl });
  await waitFor(receiver, /Webhook receiver on /, 60_000);
  const demo = run((demoCommand?.[2] ?? '').replace(npxPnpm, 'pnpm '), {
    ...demoEnv,
    WEBHOOK_URL: hooksUrl,
    PORT: '0',
  });
  const origin = (await waitFor(demo, /listening on (http:\/\/localhost:\d+)/, 60_000))[1] ?? '';
  // The line after the banner: its own write, which a loaded machine can hand over in a later chunk
  // than the banner's (a whole run at load 14 read the output between the two).
  const [, webhookUrl] = await waitFor(demo, /Webhooks: manager A's events are POSTed to (\S+)/, 10_000);
  expect(webhookUrl?.replace(/[.,]$/, '')).toBe(hooksUrl);

  const call = demoCaller(origin);
  const manager = demoIdentities.managerA.apiKey;
  await uploadThroughLinks(call, manager, { 'passport.pdf': sampleBytes(1_000, 1) });
  const created = await call('POST', '/manager/v1/clients/individuals', {
    key: manager,
    body: exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
  });
  expect(created.status).toBe(201);
  await waitFor(receiver, new RegExp(`verified client\\.created \\S+ client ${created.body.id}`), 30_000);
  expect(receiver.output()).not.toContain('refused');
}, 180_000);
