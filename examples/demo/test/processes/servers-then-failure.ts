/**
 * Run by harness-leaves-nothing-running.test.ts in a process of its own (built for the run):
 * starts the demo project's servers through its global setup, prints one JSON line with the process
 * groups the harness started, then ends as its argument says:
 *
 * - `setup-fails`: the setup runs with a database that refuses connections while s3rver and
 *   moto_server are starting; it must fail and have stopped them itself, which is checked here,
 *   before this process ends (its exit hook would otherwise hide a leak).
 * - `crash`: every server is up, then an uncaught exception ends this process.
 * - `wait`: every server is up, then it waits for the test to send it a signal.
 */
import type { TestProject } from 'vitest/node';
import { groupAlive, startedGroups } from '../../../../test-support/process-groups.js';
import setup from '../global-setup.js';

const project = { provide: () => undefined } as unknown as TestProject;
const report = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const mode = process.argv[2];
if (mode === 'setup-fails') {
  const failure = await setup(project).then(
    () => null,
    (error: Error) => error.message,
  );
  report({ failure, groups: startedGroups(), alive: startedGroups().filter(groupAlive) });
} else {
  await setup(project);
  report({ groups: startedGroups() });
  if (mode === 'crash') throw new Error('the run broke with its servers up');
  setInterval(() => undefined, 60_000);
}
