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

const comparisons = await runHttpBench();
let failed = comparisons.some((comparison) => !comparison.passed);

const others = (await readdir(benchDirectory)).filter((file) => /^(postgres|s3)-.*\.ts$/.test(file)).sort();
for (const file of others) {
  console.log(`\n=== bench/${file} ===`);
  const code = await runChild(file);
  if (code !== 0) {
    console.log(`bench/${file} exited with code ${code}`);
    failed = true;
  }
}

console.log(
  failed ? '\nbench: some goal was missed or a bench failed (see above)' : '\nbench: every goal met',
);
process.exitCode = failed ? 1 : 0;
