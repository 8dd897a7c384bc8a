/**
 * S3 document storage benchmarks (issue 5), run with `node --import tsx bench/s3-presign.ts`.
 * Starts its own s3rver (in a child process, so the server has its own event loop).
 *
 * 1. Presigning a batch of 50 upload URLs (what one request-batch-upload asks of the storage),
 *    against one URL in the same run: p50 / p95 over many batches. Goal: p50 under 10 ms.
 * 2. Promoting 10 files (CopyObject with the default bound of 8 in flight) against one copy's
 *    latency in the same run, and against 10 copies one after the other. Goal: at most 3×.
 */
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import type { PromotionItem } from '@onboarding-kit/core';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import { freshBucket, s3ClientFor } from '../packages/s3/test/s3-compatible-client.js';
import { startMotoServer, startS3rver } from '../packages/s3/test/start-s3-servers.js';
import { percentile } from './bench-report.js';

const timeOnce = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

const sample = async (runs: number, warmup: number, work: () => Promise<unknown>): Promise<number[]> => {
  for (let i = 0; i < warmup; i += 1) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) samples.push(await timeOnce(work));
  // Sorted ascending, as `percentile` reads them.
  return samples.sort((a, b) => a - b);
};

// BENCH_S3_SERVER=moto compares with moto_server (threaded) instead of s3rver (one event loop).
const serverName = process.env.BENCH_S3_SERVER === 'moto' ? 'moto' : 's3rver';
const server = serverName === 'moto' ? await startMotoServer() : await startS3rver();
try {
  const client = s3ClientFor(server.endpoint);
  const bucket = await freshBucket(client);
  const storage = createS3DocumentStorage({ client, bucket });
  const owner = `manager:${randomUUID()}`;
  const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);

  // 1. Presigning.
  const filenames = Array.from({ length: 50 }, (_, i) => `scan ${i} été #${i}.pdf`);
  const single = await sample(500, 50, async () =>
    (await storage.presignUpload(owner, 'one.pdf', inFifteenMinutes()))._unsafeUnwrap(),
  );
  const batches = await sample(200, 20, () =>
    Promise.all(
      filenames.map(async (filename) =>
        (await storage.presignUpload(owner, filename, inFifteenMinutes()))._unsafeUnwrap(),
      ),
    ),
  );

  // 2. Promotion: 10 files of 256 KiB, copied under fresh keys each run (cleanup is not timed).
  const body = new Uint8Array(256 * 1024).fill(7);
  const promoted = Array.from({ length: 10 }, (_, i) => `statement ${i}.pdf`);
  for (const filename of promoted) {
    const upload = (await storage.presignUpload(owner, filename, inFifteenMinutes()))._unsafeUnwrap();
    const response = await fetch(upload.url, { method: 'PUT', body });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status}`);
  }
  const versions = new Map(
    (await storage.listTemporary(owner))._unsafeUnwrap().map((file) => [file.filename, file.version]),
  );
  const itemsFor = (names: readonly string[]): PromotionItem[] =>
    names.map((filename) => ({
      owner,
      filename,
      key: `${randomUUID()}_${filename}`,
      version: versions.get(filename) ?? '',
    }));
  const promotion = async (names: readonly string[], concurrency: number, runs: number) => {
    const bounded = createS3DocumentStorage({ client, bucket, promotionConcurrency: concurrency });
    const samples: number[] = [];
    for (let i = 0; i < runs + 5; i += 1) {
      const items = itemsFor(names);
      const elapsed = await timeOnce(async () => (await bounded.copyToPermanent(items))._unsafeUnwrap());
      if (i >= 5) samples.push(elapsed);
      (await bounded.deletePermanent(items.map((item) => item.key)))._unsafeUnwrap();
    }
    return samples.sort((a, b) => a - b);
  };
  const oneCopy = await promotion(promoted.slice(0, 1), 8, 60);
  const tenParallel = await promotion(promoted, 8, 30);
  const tenSequential = await promotion(promoted, 1, 30);

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const presignP50 = percentile(batches, 50);
  const ratio = percentile(tenParallel, 50) / percentile(oneCopy, 50);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  );
  console.log(`date: ${new Date().toISOString()}, server: ${serverName}`);
  console.log('| measure | p50 | p95 |');
  console.log('|---|---|---|');
  console.log(`| presign 1 upload URL | ${ms(percentile(single, 50))} | ${ms(percentile(single, 95))} |`);
  console.log(`| presign a batch of 50 upload URLs | ${ms(presignP50)} | ${ms(percentile(batches, 95))} |`);
  console.log(
    `| promote 1 file (one CopyObject) | ${ms(percentile(oneCopy, 50))} | ${ms(percentile(oneCopy, 95))} |`,
  );
  console.log(
    `| promote 10 files, 8 in flight | ${ms(percentile(tenParallel, 50))} | ${ms(percentile(tenParallel, 95))} |`,
  );
  console.log(
    `| promote 10 files, one at a time | ${ms(percentile(tenSequential, 50))} | ${ms(percentile(tenSequential, 95))} |`,
  );
  const goals = [
    { name: `presign batch of 50, p50 ${ms(presignP50)}: goal < 10 ms`, met: presignP50 < 10 },
    { name: `promote 10 / one copy, p50 ratio ${ratio.toFixed(2)}×: goal ≤ 3×`, met: ratio <= 3 },
  ];
  for (const { name, met } of goals) console.log(`${name} ${met ? 'MET' : 'MISSED'}`);
  const missed = goals.filter((goal) => !goal.met).length;
  console.log(missed === 0 ? 'every goal met' : `${missed} of ${goals.length} goals MISSED`);
  // The exit status is what bench/run.ts (and CI) read.
  process.exitCode = missed === 0 ? 0 : 1;
} finally {
  await server.stop();
}
