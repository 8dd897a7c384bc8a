// Loaded into a bench target by bench/http-target-gc.ts (`--import`, with --expose-gc): on SIGUSR2
// it runs two full collections and prints the heap then in use, `{"usedHeap":N}`, on stdout. With
// BENCH_HEAP_SAMPLE=<dir> it also writes V8's sampling heap profile of the objects allocated since
// the SIGUSR2 before that survived a scavenge (collected only by a mark-compact, or still alive) to
// <dir>/<kind>-<n>.heapprofile: where what the scavenges promote was allocated.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getHeapStatistics } from 'node:v8';

const sampleDirectory = process.env.BENCH_HEAP_SAMPLE;
const session = sampleDirectory === undefined ? undefined : new Session();
let profiles = 0;
const startSampling = () =>
  session?.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
if (session !== undefined) {
  session.connect();
  await startSampling();
}

process.on('SIGUSR2', async () => {
  if (session !== undefined) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    profiles += 1;
    writeFileSync(
      `${sampleDirectory}/${process.argv.at(-1)}-${profiles}.heapprofile`,
      JSON.stringify(profile),
    );
  }
  globalThis.gc();
  globalThis.gc();
  process.stdout.write(`${JSON.stringify({ usedHeap: getHeapStatistics().used_heap_size })}\n`);
  await startSampling();
});
