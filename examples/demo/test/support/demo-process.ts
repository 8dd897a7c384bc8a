import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { signalGroup, spawnInGroup } from '../../../../test-support/process-groups.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * A demo process: one process, whose own handlers receive a signal (tsx's CLI would relay it and
 * kill the demo when the relay is not acknowledged within 30 ms, as happened on a loaded machine),
 * in a process group of its own: `kill` ends it (so does the end of this process).
 */
export type DemoProcess = {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the match once the output matches, or rejects with what was printed. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  readonly exited: Promise<number | null>;
  /** SIGKILL to the demo's process group. */
  kill(): void;
};

/**
 * Started from the run's compiled demo (`built`, the default: about 1.8 CPU s a start against 4 for
 * tsx, which transpiles and resolves its 200 source files at every start), or exactly as `pnpm demo`
 * starts it (`node --import tsx examples/demo/src/main.ts`), which demo-process.test.ts keeps.
 */
export const spawnDemoProcess = (
  env: Readonly<Record<string, string>>,
  { from = 'built' }: { readonly from?: 'built' | 'tsx' } = {},
): DemoProcess => {
  const { DATABASE_URL: _database, S3_BUCKET: _bucket, S3_ENDPOINT: _endpoint, ...inherited } = process.env;
  const entry =
    from === 'built'
      ? ['--enable-source-maps', inject('demoBuild')]
      : ['--import', 'tsx', 'examples/demo/src/main.ts'];
  const child = spawnInGroup(process.execPath, entry, {
    cwd: repositoryRoot,
    env: { ...inherited, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
