/**
 * What the benches of `pnpm bench` share to report: percentiles and medians, the load average, and the goals
 * checked in a run (a bench exits 1 when one is missed, or when it checked none).
 */
import { appendFileSync } from 'node:fs';
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

/** One goal of a bench run: a stable label, what was measured and what it had to be. */
export type GoalOutcome = {
  readonly label: string;
  readonly measured: string;
  readonly goal: string;
  readonly met: boolean;
};

/** The line every goal is printed as, in each bench and in `pnpm bench`'s closing table. */
export const goalLine = ({ label, measured, goal, met }: GoalOutcome): string =>
  `${met ? 'MET   ' : 'MISSED'} ${label.padEnd(46)} ${measured.padStart(12)}   goal ${goal}`;

/**
 * The goals of one bench run: each checked goal is printed, and appended as a JSON line to
 * BENCH_GOALS_FILE when `pnpm bench` set it (its closing table). `finish` sums them up and sets
 * the exit code: 1 when one is missed, or when the bench checked none.
 */
export const createGoalLedger = () => {
  const goals: GoalOutcome[] = [];
  return {
    checkGoal: (label: string, measured: string, goal: string, met: boolean): void => {
      const outcome = { label, measured, goal, met };
      goals.push(outcome);
      console.log(`goal ${goalLine(outcome)}`);
      const file = process.env.BENCH_GOALS_FILE;
      if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify(outcome)}\n`);
    },
    finish: (): void => {
      const missed = goals.filter((goal) => !goal.met);
      console.log(
        missed.length === 0
          ? `\nevery goal met (${goals.length})`
          : `\n${missed.length} of ${goals.length} goals MISSED: ${missed.map((goal) => goal.label).join('; ')}`,
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
