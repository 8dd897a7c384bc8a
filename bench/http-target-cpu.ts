/**
 * Server CPU per create request of the HTTP bench's targets; not one of `pnpm bench`'s files (no
 * goal: it explains the rate ratios of bench/memory-http.ts, which move with the machine's load).
 * `TSX_TSCONFIG_PATH=bench/tsconfig.packages.json node --import tsx bench/http-target-cpu.ts baseline binding`
 * (after `pnpm build`; the tsconfig points the packages at their `dist`, as `pnpm bench` does). Each
 * target runs in its own process (bench/http-target.ts); `kind@path` starts that target with
 * TSX_TSCONFIG_PATH=path, to set two builds side by side. autocannon sends BENCH_WARMUP_REQUESTS
 * creates (10,000) to each, then BENCH_ROUNDS rounds (5) of BENCH_REQUESTS creates (10,000), the
 * targets in turn; the target's user + system CPU over each round (every thread, from /proc), divided
 * by its requests, is printed with the median, and the part of it on threads other than the main
 * one (mostly the garbage collector's helpers). CPU time per request moves less with the load of a
 * shared machine than a rate does, but at a load average of 8 its rounds still spread by ±15 %.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadAverage, median } from './bench-report.js';
import { sendPreloadedCreates } from './http-preloaded-files.js';
import { type RunningTarget, startTarget, type TargetKind } from './http-target-process.js';

const warmUp = Number(process.env.BENCH_WARMUP_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 10_000);
const connections = 10;

/**
 * CPU (user + system) of a process so far, in µs (clock ticks of 10 ms): its main thread, and its
 * other threads (V8's garbage collection helpers, libuv's pool), from /proc/<pid>/task.
 */
const cpuMicrosOf = (pid: number): { main: number; others: number } => {
  let main = 0;
  let others = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
    } catch {
      continue; // The thread ended meanwhile.
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const micros = (Number(fields[11]) + Number(fields[12])) * 10_000;
    if (Number(thread) === pid) main += micros;
    else others += micros;
  }
  return { main, others };
};

const sides = process.argv.slice(2).map((argument) => {
  const [kind, tsconfig] = argument.split('@') as [TargetKind, string | undefined];
  return { label: argument, kind, env: tsconfig === undefined ? {} : { TSX_TSCONFIG_PATH: tsconfig } };
});
if (sides.length === 0) throw new Error('name the targets: baseline binding kit …');

const files = warmUp + rounds * requests;
const targets: RunningTarget[] = [];
try {
  for (const side of sides) {
    const env = side.kind === 'kit' ? { ...side.env, BENCH_PRELOAD_FILES: String(files) } : side.env;
    targets.push(await startTarget(side.kind, env));
  }
  const sent = sides.map(() => 0);
  const send = (index: number, amount: number) =>
    sendPreloadedCreates(
      { kind: sides[index]?.kind ?? '', origin: (targets[index] as RunningTarget).origin },
      amount,
      connections,
      () => {
        const n = sent[index] ?? 0;
        sent[index] = n + 1;
        return n;
      },
    );
  for (const index of sides.keys()) await send(index, warmUp);
  const perRequest: number[][] = sides.map(() => []);
  const othersPerRequest: number[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, target] of targets.entries()) {
      const before = cpuMicrosOf(target.pid);
      await send(index, requests);
      const after = cpuMicrosOf(target.pid);
      const others = after.others - before.others;
      perRequest[index]?.push((after.main - before.main + others) / requests);
      othersPerRequest[index]?.push(others / requests);
    }
  }
  for (const [index, side] of sides.entries()) {
    const perCreate = perRequest[index] ?? [];
    console.log(
      `${side.label.padEnd(40)} server CPU per create: median ${median(perCreate).toFixed(0)} µs ` +
        `(rounds ${perCreate.map((us) => us.toFixed(0)).join(' / ')}), ` +
        `of it other threads than the main one ${median(othersPerRequest[index] ?? []).toFixed(0)} µs`,
    );
  }
  console.log(`${requests} creates a round after ${warmUp}; load average ${loadAverage()}`);
} finally {
  for (const target of targets) await target.stop();
}
