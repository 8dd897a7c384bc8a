/**
 * The list matcher at real list scale, beside the matcher it replaced, in one run:
 *
 *     node --expose-gc --import tsx bench/screening-list-scale.ts
 *
 * A generated list in the targets.simple.csv format of BENCH_SCALE_TARGETS (1,000,000) targets:
 * 70% persons of thirteen cultures (a fifth written in their own script: Cyrillic, Greek, Arabic,
 * Hebrew, Hangul, Han) and 30% companies. Measured for the token matcher: the load (streamed
 * parse and index), the process's RSS once loaded, and the time of each of BENCH_SCALE_QUERIES
 * (2,000) screened names — half listed names varied (reordered, misspelled, another script),
 * half clean names — on this one thread: p50, p99, max. Then the fuzzball baseline
 * (bench/baseline) loads the same list and screens the first BENCH_BASELINE_QUERIES (100) of the
 * same names. Goals: p50 ≤ 1 ms, p99 ≤ 5 ms, load ≤ 60 s, RSS ≤ 2 GiB.
 */

import {
  companyName,
  cultures,
  personName,
  pick,
  seededRandom,
} from '../packages/screening-list/eval/multicultural-names.js';
import { loadSanctionsList } from '../packages/screening-list/src/sanctions-list.js';
import { loadSanctionsList as loadBaseline } from './baseline/fuzzball-sanctions-list.js';

const targets = Number(process.env.BENCH_SCALE_TARGETS ?? 1_000_000);
const queries = Number(process.env.BENCH_SCALE_QUERIES ?? 2000);
const baselineQueries = Number(process.env.BENCH_BASELINE_QUERIES ?? 100);

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
const listedSample: { kind: 'person' | 'organization'; name: string }[] = [];

async function* generatedList(): AsyncGenerator<string> {
  const random = seededRandom(0x5ca1e);
  yield 'id,schema,name,aliases,birth_date,countries,dataset\n';
  for (let i = 0; i < targets; i += 1) {
    if (random() < 0.7) {
      const culture = pick(random, cultures);
      const native = random() < 0.2;
      const name = personName(random, culture, native ? 'native' : 'latin');
      if (i % 997 === 0) listedSample.push({ kind: 'person', name });
      yield `b-${i},Person,${quoted(name)},,,,Bench List\n`;
    } else {
      const name = companyName(random);
      if (i % 997 === 0) listedSample.push({ kind: 'organization', name });
      yield `b-${i},Company,${quoted(name)},,,,Bench List\n`;
    }
  }
}

/** Screened names: listed ones varied as clients write them, and clean people of every culture. */
const screenedNames = () => {
  const random = seededRandom(0xbe7c4);
  const names: { kind: 'person' | 'organization'; name: string }[] = [];
  for (let i = 0; i < queries; i += 1) {
    if (i % 2 === 0 && listedSample.length > 0) {
      const listed = pick(random, listedSample);
      const words = listed.name.split(' ');
      const varied =
        i % 6 === 0
          ? [...words].reverse().join(' ')
          : i % 6 === 2
            ? words
                .map((word, at) =>
                  at === words.length - 1 && word.length > 4 ? word.slice(0, 2) + word.slice(3) : word,
                )
                .join(' ')
            : listed.name.toUpperCase();
      names.push({ kind: listed.kind, name: varied });
    } else {
      names.push({ kind: 'person', name: personName(random, pick(random, cultures)) });
    }
  }
  return names;
};

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * Each name's wall time and CPU time (user + system, `process.cpuUsage`): on a shared machine the
 * wall time counts the other processes' turns too; the CPU time is this thread's work alone.
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
const tokens = await loading(async () => (await loadSanctionsList(generatedList()))._unsafeUnwrap());
const list = tokens.loaded;
collect();
const rss = process.memoryUsage().rss;
const names = screenedNames();
// A first pass warms the JIT, as a serving host is; the second is measured.
time(names.slice(0, 300), (screened) => list.match(screened));
const measured = time(names, (screened) => list.match(screened));
console.log(
  `${targets.toLocaleString('en')} generated targets (${listedSample.length} sampled to vary), Node ${process.version}`,
);
report('token matcher', tokens, rss, measured, names.length);

const baseline = await loading(async () => await loadBaseline(generatedList()));
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
