/**
 * What the benches of `pnpm bench` share to report: percentiles and medians, the load average, and the goals
 * checked in a run (a bench exits 1 when one is missed, or when it checked none).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import type { Pool } from '../packages/postgres/test-support/postgres-pool.js';

/** The p-th percentile of timings sorted ascending (nearest rank). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** The middle value (the upper one of an even count) of some rates or ratios. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The load average over 1, 5 and 15 minutes, as printed in every bench's header and footer. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

/** The goals of one bench run: each checked goal is printed; `finish` sums them up and sets the exit code. */
export const createGoalLedger = () => {
  const goals: Array<{ readonly name: string; readonly met: boolean }> = [];
  return {
    checkGoal: (name: string, met: boolean): void => {
      goals.push({ name, met });
      console.log(`goal ${name}: ${met ? 'MET' : 'MISSED'}`);
    },
    finish: (): void => {
      const missed = goals.filter((goal) => !goal.met);
      console.log(
        missed.length === 0
          ? `\nevery goal met (${goals.length})`
          : `\n${missed.length} of ${goals.length} goals MISSED: ${missed.map((goal) => goal.name).join('; ')}`,
      );
      // A bench that checked nothing proves nothing either.
      process.exitCode = missed.length === 0 && goals.length > 0 ? 0 : 1;
    },
  };
};

/** Prints the header of a PostgreSQL bench: title, machine, server version, load average. */
export const printPostgresBenchHeader = async (title: string, pool: Pool): Promise<void> => {
  const version = (await pool.query('SHOW server_version')).rows[0]?.server_version;
  console.log(
    `# ${title}, ${new Date().toISOString()}\n` +
      `machine: ${cpus().length} x ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `Node ${process.version}, PostgreSQL ${version}${process.env.DATABASE_URL ? '' : ' (embedded, fsync=off)'}\n` +
      `load average (1, 5, 15 min) at the start: ${loadAverage()}`,
  );
};
