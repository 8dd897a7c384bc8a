/**
 * `pnpm bench`: one run, one process tree. Every bench of this folder (bench/memory-*.ts,
 * bench/postgres-*.ts, bench/s3-*.ts) runs as a child process, one after the other; each prints
 * its goals with stable labels and exits non-zero when one is missed or it fails. At the end the
 * goals of every bench are printed again as one table. Exits 0 only when every goal is met.
 *
 * What is measured is the kit as a host installs it: `pnpm bench` builds the packages first, and
 * every process this starts resolves `@onboarding-kit/*` to their `dist` through
 * bench/tsconfig.packages.json, not to the TypeScript sources through tsx's development transform
 * (which, among other things, wraps every closure created in a request in a `__name` call).
 * BENCH_FROM_SOURCE=1 measures the sources instead; BENCH_ONLY_FILES=memory-http,postgres-create
 * runs only the benches named.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GoalOutcome, goalLine, loadAverage } from './bench-report.js';

const benchDirectory = fileURLToPath(new URL('./', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

if (!process.env.BENCH_FROM_SOURCE) process.env.TSX_TSCONFIG_PATH = 'bench/tsconfig.packages.json';
const goalsFile = join(tmpdir(), `onboarding-kit-bench-goals-${process.pid}.jsonl`);
process.env.BENCH_GOALS_FILE = goalsFile;

const runChild = (file: string): Promise<number | null> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${file}`], {
      cwd: repositoryRoot,
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });

const cores = cpus();
console.log(
  `onboarding-kit bench — ${new Date().toISOString()} — Node ${process.version}, ` +
    `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), load average ${loadAverage()} — ` +
    `${process.env.BENCH_FROM_SOURCE ? 'the TypeScript sources through tsx' : 'the built packages (dist)'}\n`,
);

const only = process.env.BENCH_ONLY_FILES?.split(',').map((name) => `${name.trim()}.ts`);
const benches = (await readdir(benchDirectory))
  .filter((file) => /^(memory|postgres|s3)-.*\.ts$/.test(file))
  .filter((file) => only === undefined || only.includes(file))
  .sort();

/** Benches that failed or exited non-zero. */
const failed: string[] = [];
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const code = await runChild(file).catch((error: Error) => error.message);
  if (code !== 0) failed.push(`bench/${file} exited with ${code}`);
}

const goals: GoalOutcome[] = (await readFile(goalsFile, 'utf8').catch(() => ''))
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as GoalOutcome);
await rm(goalsFile, { force: true });
const missed = goals.filter((goal) => !goal.met);
console.log(`\n=== every goal (${goals.length}), load average at the end ${loadAverage()} ===`);
for (const goal of goals) console.log(goalLine(goal));
console.log(
  missed.length === 0 && failed.length === 0
    ? `\nbench: every goal met (${goals.length} goals, ${benches.length} benches)`
    : `\nbench: ${missed.length} goal(s) missed${failed.length === 0 ? '' : `; ${failed.join('; ')}`}`,
);
process.exitCode = missed.length === 0 && failed.length === 0 && goals.length > 0 ? 0 : 1;
