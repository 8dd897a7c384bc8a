/**
 * `pnpm bench`: one run, one process tree. The HTTP bench first (bench/http-bench.ts), then every
 * other bench present (bench/postgres-*.ts, bench/s3-*.ts, written with their packages), each as
 * a child process, one after the other. Exits non-zero when a goal is missed or a bench fails.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runHttpBench } from './http-bench.js';

const benchDirectory = fileURLToPath(new URL('./', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

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
    `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'})\n`,
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
