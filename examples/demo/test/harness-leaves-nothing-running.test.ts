import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, type TestContext, test } from 'vitest';
import { groupAlive, signalGroup } from '../../../test-support/process-groups.js';

/**
 * The harness never leaves a server behind: a global setup that fails midway stops what
 * it started, and a run that dies (uncaught exception, SIGTERM, even SIGKILL) takes its servers with
 * it. Real PostgreSQL, s3rver and moto_server, started in a separate Node process by the demo's
 * global setup (test/processes/servers-then-failure.ts); checked by process group, so the processes
 * the servers start in turn count too.
 */
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

type Report = { failure?: string | null; groups: number[]; alive?: number[] };
type Fixture = { child: ChildProcess; report: Promise<Report>; stderr: () => string };

/** Whatever an assertion left running: the fixture, and the groups it said it started. */
const killEverything = async ({ child, report }: Fixture) => {
  signalGroup(child, 'SIGKILL');
  const groups = await report.then(
    (fields) => fields.groups,
    () => [],
  );
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
};

const runFixture = (
  onTestFinished: TestContext['onTestFinished'],
  mode: string,
  env: Readonly<Record<string, string>> = {},
): Fixture => {
  const { DATABASE_URL: _database, ...inherited } = process.env;
  // processes/servers-then-failure.ts, built for the run (support/demo-build.ts).
  const child = spawn(process.execPath, ['--enable-source-maps', inject('harnessFixtureBuild'), mode], {
    cwd: repositoryRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const report = new Promise<Report>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = /^\{.*\}$/m.exec(stdout);
      if (line !== null) resolve(JSON.parse(line[0]) as Report);
    });
    child.once('exit', (code) =>
      reject(new Error(`the fixture exited (${code}) without a report:\n${stderr}`)),
    );
  });
  const running = { child, report, stderr: () => stderr };
  onTestFinished(() => killEverything(running));
  return running;
};

const exitOf = async (child: ChildProcess): Promise<number | null> => {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  return child.exitCode;
};

/** The groups still alive once `ms` have passed (a SIGKILLed process is gone a moment later). */
const aliveAfter = async (groups: readonly number[], ms: number): Promise<number[]> => {
  const deadline = Date.now() + ms;
  let alive = groups.filter(groupAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = alive.filter(groupAlive);
  }
  return alive;
};

describe.concurrent('the servers of a run die with it', () => {
  test('a global setup failing while servers start stops them before it throws', async ({
    onTestFinished,
  }) => {
    const run = runFixture(onTestFinished, 'setup-fails', {
      DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none',
    });
    const report = await run.report;
    expect(report.failure).toMatch(/ECONNREFUSED/);
    // s3rver and moto_server were starting when the database failed.
    expect(report.groups.length).toBeGreaterThanOrEqual(2);
    expect(report.alive).toEqual([]);
    expect(await exitOf(run.child)).toBe(0);
  });

  test('an uncaught exception in the run kills PostgreSQL, s3rver and moto_server', async ({
    onTestFinished,
  }) => {
    const run = runFixture(onTestFinished, 'crash');
    const { groups } = await run.report;
    // initdb, postgres, s3rver, moto_server
    expect(groups.length).toBeGreaterThanOrEqual(4);
    expect(await exitOf(run.child)).toBe(1);
    expect(run.stderr()).toContain('the run broke with its servers up');
    expect(await aliveAfter(groups, 5_000)).toEqual([]);
  });

  test.for(['SIGTERM', 'SIGKILL'] as const)(
    '%s to the run kills PostgreSQL, s3rver and moto_server',
    async (signal, { onTestFinished }) => {
      const run = runFixture(onTestFinished, 'wait');
      const { groups } = await run.report;
      expect(groups.length).toBeGreaterThanOrEqual(4);
      // PostgreSQL, s3rver and moto_server are up (initdb has done its work).
      expect(groups.filter(groupAlive), run.stderr()).toHaveLength(3);
      run.child.kill(signal);
      await exitOf(run.child);
      expect(run.child.signalCode).toBe(signal);
      expect(await aliveAfter(groups, 5_000)).toEqual([]);
    },
  );
});
