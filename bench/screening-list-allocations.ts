/**
 * What a screened name allocates, the garbage whose collection is the tail of the list matcher's
 * CPU time at scale (`screening-list-scale.ts`):
 *
 *     node --import tsx bench/screening-list-allocations.ts
 *
 * The same generated list and screened names as `screening-list-scale.ts`, at BENCH_SCALE_TARGETS
 * (200,000) targets: after a first pass (the JIT warmed), V8's sampling heap profiler records every
 * allocation, the objects the collector reclaimed included, over BENCH_ALLOCATION_ROUNDS (3) passes
 * of the 2,000 names. Prints the bytes sampled a query and the functions that allocate most (the
 * built-in ones under the function calling them). Every 256th byte is sampled: figures within a
 * few per cent from run to run. After the sampling, the bytes are also counted, one pass of the
 * names: the heap's growth over each query (`process.memoryUsage().heapUsed`), exact but for the
 * queries a collection interrupts, which are left out.
 */

import { Session } from 'node:inspector/promises';
import { loadSanctionsList } from '../packages/screening-list/src/sanctions-list.js';
import { generatedScreeningList, screenedNames } from './generated-screening-list.js';

const targets = Number(process.env.BENCH_SCALE_TARGETS ?? 200_000);
const rounds = Number(process.env.BENCH_ALLOCATION_ROUNDS ?? 3);
const queries = 2000;

type ProfileNode = {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
};

const generated = generatedScreeningList(targets);
const list = (await loadSanctionsList(generated.rows))._unsafeUnwrap();
const names = screenedNames(generated.listedSample, queries);
for (const name of names) list.match(name);

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  // Not in @types/node's parameters yet; V8 reads them (Node 20).
  ...{ includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
});
for (let round = 0; round < rounds; round += 1) for (const name of names) list.match(name);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
  profile: { head: ProfileNode };
};
session.disconnect();

// Counted, not sampled: the heap's growth over each query (no collection in between: a query
// during which the heap shrank is left out), less what reading the heap's size allocates.
const heapUsed = () => process.memoryUsage().heapUsed;
const readingStarted = heapUsed();
for (let at = 0; at < 99; at += 1) heapUsed();
const reading = (heapUsed() - readingStarted) / 100;
let counted = 0;
let countedQueries = 0;
for (const name of names) {
  const before = heapUsed();
  list.match(name);
  const grown = heapUsed() - before;
  if (grown < 0) continue;
  counted += grown - reading;
  countedQueries += 1;
}

const byFunction = new Map<string, number>();
let total = 0;
const frameName = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop() ?? ''}`.trim();
const walk = (node: ProfileNode, caller: string) => {
  const name = frameName(node);
  total += node.selfSize;
  if (node.selfSize > 0) {
    // A built-in (Map#set, Array#sort) is counted under its caller.
    const key = node.callFrame.url === '' ? `${caller} > ${name}` : name;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, name);
};
walk(profile.head, '');

const screened = rounds * names.length;
console.log(
  `${targets.toLocaleString('en')} generated targets, ${screened.toLocaleString('en')} names screened, ` +
    `Node ${process.version}: ${(total / screened / 1000).toFixed(1)} KB sampled a query; ` +
    `${(counted / countedQueries / 1000).toFixed(1)} KB counted a query (${countedQueries} of ${names.length} names)`,
);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${(bytes / screened).toFixed(0).padStart(7)} B  ${name}`);
}
