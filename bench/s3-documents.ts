/**
 * S3 document storage, run with `node --import tsx bench/s3-documents.ts` (part of `pnpm bench`).
 * Starts its own S3-compatible server (s3rver in a child process, or moto with BENCH_S3_SERVER=moto).
 *
 * 1. Presigning a batch of 50 upload URLs (what one request-batch-upload asks of the storage)
 *    and one URL: p50 / p95, reported (no absolute millisecond goal, decisions §9).
 * 2. Promotion against a realistic S3: a proxy in front of the server holds every request for
 *    20 ms (the order of a real S3 CopyObject). Promoting 10 files of 2 KiB (CopyObject, 8 in
 *    flight, the default) against promoting one, interleaved; goal: 10 files ≤ 2× one file, as the
 *    median of 5 rounds' own ratios of p50s. 10 copies one at a time are reported beside them.
 *    The files are small so that the local server's own copy work (s3rver copies on one event
 *    loop) stays small beside the 20 ms that stand for S3's.
 */
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import type { PromotionItem } from '@onboarding-kit/core/adapter';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import { freshBucket, s3ClientFor } from '../packages/s3/test/s3-compatible-client.js';
import { startMotoServer, startS3rver } from '../packages/s3/test/start-s3-servers.js';
import { startPassThroughProxy } from '../test-support/pass-through-proxy.js';
import { createGoalLedger, median, percentile } from './bench-report.js';

const { checkGoal, finish } = createGoalLedger();
/** What the proxy adds to every S3 request, as a real S3 copy takes. */
const addedPerRequestMs = 20;

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

  // 2. Promotion: 10 files of 2 KiB, copied under fresh keys each run (cleanup is not timed).
  const body = new Uint8Array(2048).fill(7);
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
  // Promotion goes through the proxy: every request waits 20 ms before it reaches the server.
  const slowProxy = await startPassThroughProxy(server.endpoint, (incoming, outgoing, forward) => {
    setTimeout(() => forward(incoming, outgoing), addedPerRequestMs);
  });
  const slowClient = s3ClientFor(slowProxy.endpoint);
  const promoteOnce = async (names: readonly string[], concurrency: number): Promise<number> => {
    const bounded = createS3DocumentStorage({
      client: slowClient,
      bucket,
      promotionConcurrency: concurrency,
    });
    const items = itemsFor(names);
    const elapsed = await timeOnce(async () => (await bounded.copyToPermanent(items))._unsafeUnwrap());
    (await storage.deletePermanent(items.map((item) => item.key)))._unsafeUnwrap();
    return elapsed;
  };
  const rounds = 5;
  const perRound = 12;
  const oneCopy: number[] = [];
  const tenParallel: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    await promoteOnce(promoted.slice(0, 1), 8);
    await promoteOnce(promoted, 8);
  }
  for (let round = 0; round < rounds; round += 1) {
    const one: number[] = [];
    const ten: number[] = [];
    for (let i = 0; i < perRound; i += 1) {
      one.push(await promoteOnce(promoted.slice(0, 1), 8));
      ten.push(await promoteOnce(promoted, 8));
    }
    one.sort((a, b) => a - b);
    ten.sort((a, b) => a - b);
    ratios.push(percentile(ten, 50) / percentile(one, 50));
    oneCopy.push(...one);
    tenParallel.push(...ten);
  }
  oneCopy.sort((a, b) => a - b);
  tenParallel.sort((a, b) => a - b);
  const tenSequential: number[] = [];
  for (let i = 0; i < perRound; i += 1) {
    tenSequential.push(await promoteOnce(promoted, 1));
  }
  tenSequential.sort((a, b) => a - b);
  await slowProxy.close();

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const ratio = median(ratios);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  );
  console.log(
    `date: ${new Date().toISOString()}, server: ${serverName}, ${addedPerRequestMs} ms added to every promotion request`,
  );
  console.log('| measure | p50 | p95 |');
  console.log('|---|---|---|');
  console.log(`| presign 1 upload URL | ${ms(percentile(single, 50))} | ${ms(percentile(single, 95))} |`);
  console.log(
    `| presign a batch of 50 upload URLs | ${ms(percentile(batches, 50))} | ${ms(percentile(batches, 95))} |`,
  );
  console.log(
    `| promote 1 file (one CopyObject) | ${ms(percentile(oneCopy, 50))} | ${ms(percentile(oneCopy, 95))} |`,
  );
  console.log(
    `| promote 10 files, 8 in flight | ${ms(percentile(tenParallel, 50))} | ${ms(percentile(tenParallel, 95))} |`,
  );
  console.log(
    `| promote 10 files, one at a time | ${ms(percentile(tenSequential, 50))} | ${ms(percentile(tenSequential, 95))} |`,
  );
  console.log(`rounds' ratios of p50s, 10 files / 1 file: ${ratios.map((r) => r.toFixed(2)).join(' / ')}`);
  checkGoal(
    's3.promotion.10-files-vs-1-file',
    `${ratio.toFixed(2)}x`,
    '<= 2x (8 in flight, 20 ms a request)',
    ratio <= 2,
  );
  finish();
} finally {
  await server.stop();
}
