import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type TargetKind = 'kit' | 'baseline' | 'binding' | 'pg-kit' | 'pg-handwritten';

export type RunningTarget = {
  readonly origin: string;
  /** The target's process id (its CPU time is in /proc/<pid>/stat). */
  readonly pid: number;
  /** The CPU time (user + system, every thread) the target has used so far, in µs, in 10 ms steps. */
  readonly cpuMicros: () => number;
  /** SIGTERM, then waits for the exit; what the target printed on stderr is kept in `stderr`. */
  stop(): Promise<void>;
  readonly stderr: () => string;
};

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms), in µs. */
const processCpuMicros = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

/**
 * Starts `bench/http-target.ts` in a child process (with `--cpu-prof` into bench/.profiles when
 * BENCH_CPU_PROF is set) and resolves once it listens.
 */
export const startTarget = (
  kind: TargetKind,
  env: Readonly<Record<string, string>> = {},
): Promise<RunningTarget> =>
  new Promise((resolve, reject) => {
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/.profiles'] : [];
    const child: ChildProcess = spawn(
      process.execPath,
      [...profile, '--import', 'tsx', 'bench/http-target.ts', kind],
      // The IPC channel only tells the target when this process is gone (it then stops itself).
      { cwd: repositoryRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${kind} target did not listen within 60 s:\n${stderr}`));
    }, 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const ready = /^\{"port":(\d+)\}$/m.exec(stdout);
      if (ready === null) return;
      clearTimeout(timer);
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        origin: `http://127.0.0.1:${ready[1]}`,
        pid: child.pid ?? 0,
        cpuMicros: () => processCpuMicros(child.pid ?? 0),
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} target exited with code ${code} before listening:\n${stderr}`));
    });
  });
