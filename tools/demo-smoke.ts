/**
 * The demo on the Node that runs this script, as a host first meets it (`pnpm demo:smoke`): started
 * the README's way (`pnpm --silent demo`, in memory, on a free port), one request, then Ctrl-C to
 * its process group as a terminal sends it. It passes when the demo answered 200, stopped within
 * 10 s and printed neither an error nor pnpm's "Command failed". CI runs it on every Node version
 * it tests (.ci/run).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const pnpm = process.env.npm_execpath;
if (pnpm === undefined) {
  console.error('demo smoke: run it through pnpm (pnpm demo:smoke), which names itself in npm_execpath');
  process.exit(2);
}

const fail = (why: string, printed: string): never => {
  console.error(`demo smoke on Node ${process.version}: ${why}\n--- the demo printed:\n${printed}`);
  process.exit(1);
};

// A process group of its own: the Ctrl-C below reaches pnpm and the demo together.
const demo = spawn(process.execPath, [pnpm, '--silent', 'demo'], {
  cwd: root,
  detached: true,
  env: { ...process.env, PORT: '0', DATABASE_URL: '', S3_BUCKET: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const killGroup = (signal: NodeJS.Signals) => {
  try {
    if (demo.pid !== undefined) process.kill(-demo.pid, signal);
  } catch {
    // Already gone.
  }
};
process.on('exit', () => killGroup('SIGKILL'));
let printed = '';
demo.stdout.on('data', (chunk: Buffer) => {
  printed += chunk.toString('utf8');
});
demo.stderr.on('data', (chunk: Buffer) => {
  printed += chunk.toString('utf8');
});
const exited = once(demo, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

const started = Date.now();
let origin: string | undefined;
while (origin === undefined) {
  origin = /listening on (http:\/\/localhost:\d+)/.exec(printed)?.[1];
  if (demo.exitCode !== null) fail(`exited with ${demo.exitCode} before listening`, printed);
  if (Date.now() - started > 60_000) fail('not listening within 60 s', printed);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const fees = await fetch(`${origin}/manager/v1/preset-fees`, {
  headers: { SERVICE_API_KEY: 'demo-manager-a-key' },
});
const body: unknown = await fees.json();
if (fees.status !== 200 || !Array.isArray(body) || body.length === 0)
  fail(`GET /manager/v1/preset-fees answered ${fees.status} ${JSON.stringify(body)}`, printed);

killGroup('SIGINT');
const stopped = await Promise.race([
  exited,
  new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref()),
]);
if (stopped === null) fail('still running 10 s after Ctrl-C', printed);
// pnpm itself dies of the Ctrl-C it was sent (130); the demo it ran stops cleanly.
if (!printed.includes('SIGINT: stopping the demo')) fail('did not stop on SIGINT', printed);
if (/Command failed|ELIFECYCLE|Error/.test(printed)) fail('printed an error when stopped', printed);
console.log(
  `demo smoke on Node ${process.version}: listening, preset fees 200 (${(body as unknown[]).length} fees), stopped by Ctrl-C in ${Date.now() - started} ms from start`,
);
