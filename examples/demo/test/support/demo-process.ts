import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A demo started exactly as `pnpm demo` starts it, in a process of its own. */
export type DemoProcess = {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the match once the output matches, or rejects with what was printed. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  readonly exited: Promise<number | null>;
  /** SIGKILL unless it already stopped. */
  kill(): void;
};

export const spawnDemoProcess = (env: Readonly<Record<string, string>>): DemoProcess => {
  const { DATABASE_URL: _database, S3_BUCKET: _bucket, S3_ENDPOINT: _endpoint, ...inherited } = process.env;
  const child = spawn(
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
};
