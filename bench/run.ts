/**
 * `pnpm bench`: one run, one process tree. The HTTP bench first (bench/http-bench.ts), then every
 * other bench present (bench/postgres-*.ts, bench/s3-*.ts, written with their packages), each as
 * a child process, one after the other. Exits non-zero when a goal is missed or a bench fails.
 *
 * What is measured is the kit as a host installs it: `pnpm bench` builds the packages first, and
 * every process this starts (the HTTP servers, the other benches) resolves `@onboarding-kit/*` to
 * their `dist` through bench/tsconfig.packages.json, not to the TypeScript sources through tsx's
 * development transform (which, among other things, wraps every closure created in a request in a
 * `__name` call). BENCH_FROM_SOURCE=1 measures the sources instead.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runHttpBench } from './http-bench.js';

const benchDirectory = fileURLToPath(new URL('./', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

if (!process.env.BENCH_FROM_SOURCE) process.env.TSX_TSCONFIG_PATH = 'bench/tsconfig.packages.json';

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
    `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}) — ` +
    `${process.env.BENCH_FROM_SOURCE ? 'the TypeScript sources through tsx' : 'the built packages (dist)'}\n`,
);

/** What made this run fail, one line each: a missed goal, a bench that failed or exited non-zero. */
const problems: string[] = [];

try {
  for (const { name, ratio, goal, passed } of await runHttpBench()) {
    if (!passed)
      problems.push(
        `bench/http-bench.ts: ${name} ${ratio.toFixed(2)}× (goal ≥ ${goal}×, every answer 2xx) MISSED`,
      );
  }
} catch (error) {
  console.error(error);
  problems.push(`bench/http-bench.ts failed: ${error instanceof Error ? error.message : String(error)}`);
}

// Each of these exits 1 when one of its goals is missed (and prints which), non-zero when it fails.
const others = (await readdir(benchDirectory)).filter((file) => /^(postgres|s3)-.*\.ts$/.test(file)).sort();
for (const file of others) {
  console.log(`\n=== bench/${file} ===`);
  const code = await runChild(file).catch((error: Error) => error.message);
  if (code !== 0)
    problems.push(`bench/${file} exited with ${code}: a goal missed or the bench failed (see above)`);
}

console.log(
  problems.length === 0
    ? `\nbench: every goal met (bench/http-bench.ts, ${others.map((file) => `bench/${file}`).join(', ')})`
    : `\nbench: ${problems.length} problem(s):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
