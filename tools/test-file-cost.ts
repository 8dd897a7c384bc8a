/**
 * What a test file (or a project) costs: `pnpm vitest run <arguments>` on the machine as it is,
 * printing the load average before and after, the wall time, and the CPU time of every process the
 * run starts, by command (node, chromium, postgres, moto_server…). `time` counts only the children
 * a process waits for: not Chromium's renderers, nor PostgreSQL's backends, nor a server stopped by
 * a signal to its group. Here every descendant of the run is read from /proc every 0.2 s while it
 * lives (a process shorter than that, or its last 0.2 s, is missed: a floor, not a bill).
 * Linux only. Usage: pnpm test:cost --project postgres test/review-queue-plans.test.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');

type Sample = { parent: number; command: string; ticks: number };
const processes = (): Map<number, Sample> => {
  const found = new Map<number, Sample>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state, ppid, … utime (12th) and stime (13th).
      found.set(Number(name), {
        parent: Number(fields[1]),
        command,
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
};

const kind = (command: string): string =>
  command.startsWith('chrom') ? 'chromium' : command.startsWith('postgres') ? 'postgres' : command;

console.log(`load average before: ${loadAverage()}`);
const started = Date.now();
const run = spawn('pnpm', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const members = new Set<number>(run.pid === undefined ? [] : [run.pid]);
const mostTicks = new Map<number, { command: string; ticks: number }>();
const sample = () => {
  const now = processes();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { parent }] of now)
      if (!members.has(pid) && members.has(parent)) {
        members.add(pid);
        grew = true;
      }
  }
  for (const pid of members) {
    const seen = now.get(pid);
    if (seen !== undefined)
      mostTicks.set(pid, {
        command: kind(seen.command),
        ticks: Math.max(mostTicks.get(pid)?.ticks ?? 0, seen.ticks),
      });
  }
};
const sampling = setInterval(sample, 200);
run.on('exit', (code) => {
  sample();
  clearInterval(sampling);
  const byCommand = new Map<string, number>();
  for (const { command, ticks } of mostTicks.values())
    byCommand.set(command, (byCommand.get(command) ?? 0) + ticks);
  const seconds = (ticks: number) => (ticks / ticksPerSecond).toFixed(1);
  const total = [...byCommand.values()].reduce((sum, ticks) => sum + ticks, 0);
  const parts = [...byCommand]
    .filter(([, ticks]) => ticks / ticksPerSecond >= 0.1)
    .sort((a, b) => b[1] - a[1])
    .map(([command, ticks]) => `${command} ${seconds(ticks)}`);
  console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}`);
  console.log(`CPU of every process of the run: ${seconds(total)} s (${parts.join(', ')})`);
  console.log(`load average after: ${loadAverage()}`);
  process.exitCode = code ?? 1;
});
