/**
 * What the HTTP bench's targets allocate and collect per create, in quantities that do not move with
 * the machine's load; not one of `pnpm bench`'s files (no goal: it explains bench/memory-http.ts's
 * binding-only ratio). `TSX_TSCONFIG_PATH=bench/tsconfig.packages.json node --import tsx
 * bench/http-target-gc.ts baseline binding` (after `pnpm build`). Each target runs in its own process
 * (bench/http-target.ts) with `--trace-gc-nvp`, V8's line per collection: the bytes allocated since
 * the collection before, the bytes a scavenge copied within the young generation and promoted to
 * the old one, its pause. autocannon sends BENCH_WARMUP_REQUESTS creates (10,000) to each, then
 * BENCH_ROUNDS rounds (5) of BENCH_REQUESTS creates (10,000), the targets in turn (`kind@path` starts
 * that target with TSX_TSCONFIG_PATH=path, to set two builds side by side); after each round
 * the target runs two full collections (bench/http-target-heap-probe.mjs) and reports the heap still
 * in use, so a heap that grows round after round is something kept per request. BENCH_TARGET_NODE_FLAGS
 * adds Node flags to the targets (`--max-semi-space-size=64`); BENCH_CONNECTIONS sets autocannon's
 * connections (10); BENCH_HEAP_SAMPLE=<dir> writes each round's sampling heap profile of what
 * survived a scavenge (bench/http-target-heap-probe.mjs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadAverage } from './bench-report.js';
import { sendPreloadedCreates } from './http-preloaded-files.js';
import type { TargetKind } from './http-target-process.js';

const warmUp = Number(process.env.BENCH_WARMUP_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 10_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

/** One `--trace-gc-nvp` line: its kind (s scavenge, mc/ms mark-compact…) and figures. */
type Collection = { readonly kind: string; readonly figures: ReadonlyMap<string, number> };

type Target = {
  readonly kind: TargetKind;
  /** How it is printed: the kind, and `@tsconfig` when it runs another build. */
  readonly label: string;
  readonly origin: string;
  /** The collections traced so far. */
  readonly collections: Collection[];
  /** Two full collections, then the heap in use, in bytes. */
  usedHeapAfterFullGc(): Promise<number>;
  stop(): Promise<void>;
};

const start = (label: string): Promise<Target> =>
  new Promise((resolve, reject) => {
    const [kind, tsconfig] = label.split('@') as [TargetKind, string | undefined];
    const child: ChildProcess = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_TARGET_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
        '--trace-gc-nvp',
        '--expose-gc',
        '--import',
        'tsx',
        '--import',
        './bench/http-target-heap-probe.mjs',
        'bench/http-target.ts',
        kind,
      ],
      {
        cwd: repositoryRoot,
        env: tsconfig === undefined ? process.env : { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      },
    );
    const collections: Collection[] = [];
    const heapWaiters: Array<(bytes: number) => void> = [];
    let pending = '';
    let ready = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const port = /^\{"port":(\d+)\}$/.exec(line);
        const heap = /^\{"usedHeap":(\d+)\}$/.exec(line);
        if (port !== null && !ready) {
          ready = true;
          const exited = new Promise<void>((done) => child.once('exit', () => done()));
          resolve({
            kind,
            label,
            origin: `http://127.0.0.1:${port[1]}`,
            collections,
            usedHeapAfterFullGc: () =>
              new Promise((done) => {
                heapWaiters.push(done);
                child.kill('SIGUSR2');
              }),
            stop: async () => {
              if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
              await exited;
            },
          });
        } else if (heap !== null) {
          heapWaiters.shift()?.(Number(heap[1]));
        } else if (line.includes('gc=')) {
          const figures = new Map<string, number>();
          let collectionKind = '?';
          for (const pair of line.trim().split(/\s+/)) {
            const [name = '', value = ''] = pair.split('=');
            if (name === 'gc') collectionKind = value;
            else figures.set(name, Number(value));
          }
          collections.push({ kind: collectionKind, figures });
        }
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`the ${label} target exited with code ${code} before listening`));
    });
  });

const kinds = process.argv.slice(2);
if (kinds.length === 0) throw new Error('name the targets: baseline binding …');

const targets: Target[] = [];
try {
  for (const kind of kinds) targets.push(await start(kind));
  const sent = kinds.map(() => 0);
  const send = (index: number, amount: number) =>
    sendPreloadedCreates(targets[index] as Target, amount, connections, () => {
      const n = sent[index] ?? 0;
      sent[index] = n + 1;
      return n;
    });
  for (const index of kinds.keys()) await send(index, warmUp);
  for (const target of targets)
    console.log(
      `${target.label}: heap in use after the warm-up ${((await target.usedHeapAfterFullGc()) / 1024).toFixed(0)} KiB`,
    );
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, target] of targets.entries()) {
      const from = target.collections.length;
      await send(index, requests);
      const traced = target.collections.slice(from);
      if (process.env.BENCH_GC_SEQUENCE) {
        console.log(
          traced
            .map((c) => `${c.kind}:${((c.figures.get('new_space_survived') ?? 0) / 1024).toFixed(0)}`)
            .join(' '),
        );
      }
      const total = (name: string, kind?: string) =>
        traced
          .filter((collection) => kind === undefined || collection.kind === kind)
          .reduce((sum, collection) => sum + (collection.figures.get(name) ?? 0), 0);
      const perRequest = (bytes: number) => `${(bytes / requests).toFixed(0)} B`;
      const scavenges = traced.filter((collection) => collection.kind === 's').length;
      const usedHeap = await target.usedHeapAfterFullGc();
      console.log(
        `${target.label.padEnd(9)} round ${round + 1}: allocated ${perRequest(total('allocated'))} a create, ` +
          `scavenges ${scavenges}, other collections ${traced.length - scavenges}` +
          ` (${[...new Set(traced.map((collection) => collection.kind))].join(',')}); ` +
          `survived in young ${perRequest(total('new_space_survived', 's'))}, promoted ${perRequest(total('promoted', 's'))} a create; ` +
          `pauses ${((total('pause') * 1000) / requests).toFixed(1)} µs a create; heap in use after ${(usedHeap / 1024).toFixed(0)} KiB`,
      );
    }
  }
  console.log(`${requests} creates a round after ${warmUp}; load average ${loadAverage()}`);
} finally {
  for (const target of targets) await target.stop();
}
