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
 * few per cent from run to run.
 */

import { Session } from 'node:inspector/promises';
import {
  companyName,
  cultures,
  personName,
  pick,
  seededRandom,
} from '../packages/screening-list/eval/multicultural-names.js';
import { loadSanctionsList } from '../packages/screening-list/src/sanctions-list.js';

const targets = Number(process.env.BENCH_SCALE_TARGETS ?? 200_000);
const rounds = Number(process.env.BENCH_ALLOCATION_ROUNDS ?? 3);
const queries = 2000;

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

type ProfileNode = {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
};

const list = (await loadSanctionsList(generatedList()))._unsafeUnwrap();
const names = screenedNames();
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
    `Node ${process.version}: ${(total / screened / 1000).toFixed(1)} KB sampled a query`,
);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${(bytes / screened).toFixed(0).padStart(7)} B  ${name}`);
}
