/**
 * Child processes of the test harness and the benches (PostgreSQL, s3rver, moto_server, demo
 * processes) never outlive the process that started them, whatever fails.
 *
 * Each child leads a process group of its own (`detached`), so a kill reaches what it started in
 * turn (the node process tsx runs, PostgreSQL's backends). Every group still running is killed
 * synchronously when this process exits (normally, by process.exit, by an uncaught exception) or
 * is told to stop by SIGINT, SIGTERM or SIGHUP, and their data directories are deleted. None of
 * them inherits this process's output: a leftover could otherwise hold a pipe reading that output
 * open. SIGKILL cannot be caught: a watchdog per group kills it then (and deletes its data).
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';

const running = new Set<ChildProcess>();
const started: number[] = [];
const directories = new Set<string>();

/** Sends `signal` to the child's whole process group; false when no process of it is left. */
export const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): boolean => {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
};

const killEveryGroup = () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
  running.clear();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
  directories.clear();
};

let hooked = false;
const killGroupsWhenThisProcessEnds = () => {
  if (hooked) return;
  hooked = true;
  process.on('exit', killEveryGroup);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killEveryGroup();
      // Nobody else handles the signal: end the way Node would have without this listener.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
};

/**
 * `spawn`, in a process group of its own, killed with this process. The caller still listens to
 * 'error' (a spawn that fails emits it, and no 'exit'). `directory`, the child's data, is deleted
 * when this process dies of SIGKILL with the child running.
 */
export const spawnInGroup = (
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'detached'> = {},
  { directory }: { directory?: string } = {},
): ChildProcess => {
  killGroupsWhenThisProcessEnds();
  const child = spawn(command, args, { ...options, detached: true });
  const watchdog = child.pid === undefined ? undefined : watchGroup(child.pid, directory);
  if (child.pid !== undefined) started.push(child.pid);
  running.add(child);
  const ended = () => {
    running.delete(child);
    watchdog?.stdin?.end('ended\n');
  };
  child.once('error', ended);
  child.once('exit', () => {
    // The leader is gone: so is whatever it left behind.
    signalGroup(child, 'SIGKILL');
    ended();
  });
  return child;
};

/**
 * SIGKILL runs no handler: a watchdog outside the group reads a pipe only this process writes to.
 * When the child ends, it is told so and leaves; when this process ends first, however it ends, the
 * read meets the end of the pipe and the watchdog kills the group and deletes its directory.
 */
const watchGroup = (pid: number, directory = ''): ChildProcess => {
  const script = `read -r word; [ "$word" = ended ] && exit 0; kill -KILL -${pid}; [ -z "$1" ] || rm -rf -- "$1"`;
  const watchdog = spawn('sh', ['-c', script, 'watchdog', directory], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.once('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  releaseFromEventLoop(watchdog);
  return watchdog;
};

/**
 * Deletes `directory` (a server's data) if this process ends before the answered function is
 * called, after the servers are killed.
 */
export const removeOnExit = (directory: string): (() => void) => {
  killGroupsWhenThisProcessEnds();
  directories.add(directory);
  return () => {
    directories.delete(directory);
  };
};

/** The process group ids of every child `spawnInGroup` started in this process, dead or alive. */
export const startedGroups = (): readonly number[] => [...started];

/** True while some process of the group `pid` leads is alive. */
export const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Lets this process end while a server child still runs (the exit hook then kills it): a server
 * nobody stopped must not keep the test runner alive with its output captured.
 */
export const releaseFromEventLoop = (child: ChildProcess): void => {
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as { unref?: () => void } | null)?.unref?.();
  }
};

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Asks the group's leader to stop with `signal`, waits for it to exit (SIGKILL to the whole group
 * after `graceMs`), then kills what is left of the group.
 */
export const stopGroup = async (
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> => {
  if (child.pid === undefined) return;
  if (!hasExited(child)) {
    child.ref();
    const exited = once(child, 'exit');
    child.kill(signal);
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
  signalGroup(child, 'SIGKILL');
  running.delete(child);
};

type Started<T> = { [K in keyof T]: T[K] extends () => Promise<infer V> ? V : never };

/**
 * Starts servers side by side. When one fails, waits for the others, stops those that started and
 * throws, naming every failure: a setup that fails midway leaves nothing running.
 */
export const startAllOrNone = async <T extends Record<string, () => Promise<{ stop(): Promise<void> }>>>(
  starters: T,
): Promise<Started<T>> => {
  const names = Object.keys(starters);
  const settled = await Promise.allSettled(names.map((name) => (starters[name] as T[keyof T])()));
  const failures = names.flatMap((name, index) => {
    const outcome = settled[index];
    return outcome?.status === 'rejected' ? [{ name, reason: outcome.reason as unknown }] : [];
  });
  if (failures.length === 0) {
    return Object.fromEntries(
      names.map((name, index) => [name, (settled[index] as PromiseFulfilledResult<unknown>).value]),
    ) as Started<T>;
  }
  await Promise.allSettled(
    settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.stop()] : [])),
  );
  const described = failures
    .map(({ name, reason }) => `${name}: ${reason instanceof Error ? reason.message : String(reason)}`)
    .join('\n');
  throw new Error(`could not start ${failures.map(({ name }) => name).join(', ')}:\n${described}`, {
    cause: failures[0]?.reason,
  });
};

/** Stops every server, all of them even when one fails to stop (then throws). */
export const stopAll = async (servers: ReadonlyArray<{ stop(): Promise<void> }>): Promise<void> => {
  const outcomes = await Promise.allSettled(servers.map((server) => server.stop()));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
};
