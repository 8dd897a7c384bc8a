import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signalGroup, spawnInGroup } from '../../../../test-support/process-groups.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * A demo started exactly as `pnpm demo` starts it, in a process group of its own: tsx runs the demo
 * in a node process of its own, and `kill` ends both (so does the end of this process).
 */
export type DemoProcess = {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the match once the output matches, or rejects with what was printed. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  readonly exited: Promise<number | null>;
  /** SIGKILL to tsx and the demo it runs. */
  kill(): void;
};

export const spawnDemoProcess = (env: Readonly<Record<string, string>>): DemoProcess => {
  const { DATABASE_URL: _database, S3_BUCKET: _bucket, S3_ENDPOINT: _endpoint, ...inherited } = process.env;
  const child = spawnInGroup(
    join(repositoryRoot, 'node_modules/.bin/tsx'),
    ['--tsconfig', 'tsconfig.json', 'examples/demo/src/main.ts'],
    { cwd: repositoryRoot, env: { ...inherited, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  const collect = (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', resolve);
    child.once('error', (error) => {
      printed += `could not start: ${error.message}\n`;
      resolve(null);
    });
  });
  return {
    child,
    output: () => printed,
    exited,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const found = pattern.exec(printed);
          if (found !== null) {
            clearInterval(poll);
            resolve(found);
          } else if (Date.now() - started > timeoutMs || child.exitCode !== null) {
            clearInterval(poll);
            reject(new Error(`no ${pattern} in the demo's output:\n${printed}`));
          }
        }, 50);
      }),
    kill: () => {
      signalGroup(child, 'SIGKILL');
    },
  };
};
