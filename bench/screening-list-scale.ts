/**
 * The list matcher at real list scale, beside the matcher it replaced, in one run:
 *
 *     taskset -c 1 node --expose-gc --import tsx bench/screening-list-scale.ts
 *
 * `taskset -c 1` holds the process to one core, as the goal is stated ("per name on one core"):
 * V8's garbage collector otherwise runs helper threads on the other cores, whose CPU time
 * `process.cpuUsage` counts too (a name's CPU time then exceeds its wall time). Without it the
 * figures are those of a process free to use every core.
 *
 * A generated list in the targets.simple.csv format of BENCH_SCALE_TARGETS (1,000,000) targets:
 * 70% persons of thirteen cultures (a fifth written in their own script: Cyrillic, Greek, Arabic,
 * Hebrew, Hangul, Han) and 30% companies; persons with birth dates as lists give them (most a
 * date or a year, some none: eval/generated-birth-dates.ts), and screened persons with their own
 * (a listed name varied with the listed date), so that the birth-date evidence is weighed as a
 * host weighs it. Measured for the token matcher: the load (streamed
 * parse and index), the process's RSS once loaded, and the time of each of BENCH_SCALE_QUERIES
 * (2,000) screened names — half listed names varied (reordered, misspelled, another script),
 * half clean names — on this one thread: p50, p99, max. The names are the first the list screens
 * after its load (it warms itself at load: `warmUp` in sanctions-list.ts). Then the fuzzball baseline
 * (bench/baseline) loads the same list and screens the first BENCH_BASELINE_QUERIES (100) of the
 * same names. Goals: p50 ≤ 1 ms, p99 ≤ 5 ms, load ≤ 60 s, RSS ≤ 2 GiB.
 */

import { availableParallelism } from 'node:os';
import { loadSanctionsList } from '../packages/screening-list/src/sanctions-list.js';
import { loadSanctionsList as loadBaseline } from './baseline/fuzzball-sanctions-list.js';
import { generatedScreeningList, screenedNames } from './generated-screening-list.js';

const targets = Number(process.env.BENCH_SCALE_TARGETS ?? 1_000_000);
const queries = Number(process.env.BENCH_SCALE_QUERIES ?? 2000);
const baselineQueries = Number(process.env.BENCH_BASELINE_QUERIES ?? 100);

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * Each name's wall time and CPU time (user + system, `process.cpuUsage`): on a shared machine the
 * wall time counts the other processes' turns too; the CPU time is this process's work, its
 * garbage collector's helper threads included.
 */
const time = <T>(names: readonly T[], screen: (name: T) => unknown) => {
  const wall: number[] = [];
  const cpu: number[] = [];
  let hits = 0;
  for (const name of names) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    const matches = screen(name) as readonly unknown[];
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
    if (matches.length > 0) hits += 1;
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    wall: { p50: percentile(wall, 50), p99: percentile(wall, 99), max: wall[wall.length - 1] ?? 0 },
    cpu: { p50: percentile(cpu, 50), p99: percentile(cpu, 99), max: cpu[cpu.length - 1] ?? 0 },
    hits,
  };
};

const ms = (value: number) => `${value.toFixed(3)} ms`;
const report = (
  name: string,
  load: { wall: number; cpu: number },
  rss: number,
  measured: ReturnType<typeof time>,
  count: number,
) =>
  console.log(
    `${name}: load ${load.wall.toFixed(1)} s (CPU ${load.cpu.toFixed(1)} s), RSS ${gib(rss)}; ${count} names: ` +
      `CPU p50 ${ms(measured.cpu.p50)}, p99 ${ms(measured.cpu.p99)}, max ${ms(measured.cpu.max)}; ` +
      `wall p50 ${ms(measured.wall.p50)}, p99 ${ms(measured.wall.p99)} (${measured.hits} with a hit)`,
  );

const loading = async <T>(load: () => Promise<T>) => {
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const loaded = await load();
  const used = process.cpuUsage(cpuStarted);
  return { loaded, wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
};

collect();
const generated = generatedScreeningList(targets);
const { listedSample } = generated;
const tokens = await loading(async () => (await loadSanctionsList(generated.rows))._unsafeUnwrap());
const list = tokens.loaded;
const names = screenedNames(listedSample, queries);
// The first names screened after the load are measured, as a host's first clients meet them: the
// list warms itself at load (`warmUp` in sanctions-list.ts, counted in the load's time), and no
// full collection is forced before them (its sweeping of the whole heap would run on the
// collector's threads during the first names, which a host does not ask for).
const measured = time(names, (screened) => list.match(screened));
// The heap's live size once loaded: a full collection first, so that garbage is not counted.
collect();
const rss = process.memoryUsage().rss;
console.log(
  `${targets.toLocaleString('en')} generated targets (${listedSample.length} sampled to vary), Node ${process.version}, ${availableParallelism()} core(s) available to this process`,
);
report('token matcher', tokens, rss, measured, names.length);

const baseline = await loading(async () => await loadBaseline(generatedScreeningList(targets).rows));
collect();
const both = process.memoryUsage().rss;
const sample = names.slice(0, baselineQueries);
time(sample.slice(0, 5), (screened) => baseline.loaded.match(screened));
report(
  'fuzzball baseline',
  baseline,
  both - rss,
  time(sample, (screened) => baseline.loaded.match(screened)),
  sample.length,
);
report(
  'token matcher, same sample',
  tokens,
  rss,
  time(sample, (screened) => list.match(screened)),
  sample.length,
);
console.log("(the baseline's RSS is the growth of the process when it loaded beside the token matcher)");
