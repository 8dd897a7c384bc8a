import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { inject } from 'vitest';
import type { ProcessScript } from './processes-build.global-setup.js';

/**
 * Starts one of test/processes/*.ts in a separate Node process, from its build of this run
 * (processes-build.global-setup.ts): the file as `node --import tsx` would run it, without
 * transpiling the adapters' sources at every start.
 */
export const spawnTestProcess = (
  script: ProcessScript,
  args: readonly string[],
): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, ['--enable-source-maps', inject('postgresProcessBuilds')[script], ...args], {
    stdio: 'pipe',
  });

/** Resolves with the next full line the child prints; rejects when it exits first (with its stderr). */
export const nextLine = (child: ChildProcessWithoutNullStreams): Promise<string> =>
  new Promise((resolve, reject) => {
    let buffered = '';
    let errors = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        cleanup();
        resolve(buffered.slice(0, end));
      }
    };
    const onError = (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child exited (${code}) before printing a line: ${errors}`));
    };
    const cleanup = () => {
      child.stdout.off('data', onData);
      child.stderr.off('data', onError);
      child.off('exit', onExit);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onError);
    child.on('exit', onExit);
  });

export const exited = async (child: ChildProcessWithoutNullStreams): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
};
