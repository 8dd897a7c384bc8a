/**
 * S3 document storage, run with `node --import tsx bench/s3-documents.ts` (part of `pnpm bench`).
 * Starts its own S3-compatible server (s3rver in a child process, or moto with BENCH_S3_SERVER=moto).
 *
 * 1. Presigning a batch of 50 upload URLs (what one request-batch-upload asks of the storage)
 *    and one URL: p50 / p95, reported (no absolute millisecond goal, decisions §9).
 * 2. Promotion against a realistic S3: a proxy in front of the server holds every request for
 *    20 ms (the order of a real S3 request). The goal (decisions §9: 10 files ≤ 2× one file, 8
 *    copies in flight) is judged on the promotion as a command runs it (`promoteDocumentsAround`):
 *    a create naming 10 files of 2 KiB against a create naming one, through the kit on memory
 *    adapters with its documents in S3: the files checked (HEAD, 16 at once), claimed, copied
 *    (CopyObject, 8 in flight), the client committed, the uploads deleted (one DeleteObjects). The
 *    median of 5 rounds' own ratios of p50s.
 *    The copy step alone (`copyToPermanent`: 10 CopyObjects, 8 in flight, against one) is reported
 *    beside it, not judged: 10 copies 8 at a time are two waves of 20 ms where one copy is one, so
 *    its ratio cannot be below 2 on any server, and the local server's own copy work (s3rver copies
 *    on one event loop) is added to the second wave. 10 copies one at a time are reported too.
 *    The files are small so that the local server's work stays small beside the 20 ms that stand
 *    for S3's.
 */
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { createOnboardingKit, exampleIndividualPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import type { PromotionItem } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import { freshBucket, s3ClientFor } from '../packages/s3/test/s3-compatible-client.js';
import { startMotoServer, startS3rver } from '../packages/s3/test/start-s3-servers.js';
import { startPassThroughProxy } from '../test-support/pass-through-proxy.js';
import { sendUpload } from '../test-support/send-upload.js';
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
  // Each batch counts the owner's area and marks its links (temporary-area-bound.ts): S3 round trips.
  const single = await sample(500, 50, async () =>
    (await storage.presignUploads(owner, ['one.pdf'], inFifteenMinutes()))._unsafeUnwrap(),
  );
  const batches = await sample(200, 20, async () =>
    (await storage.presignUploads(owner, filenames, inFifteenMinutes()))._unsafeUnwrap(),
  );

  // 2. Promotion: 10 files of 2 KiB, copied under fresh keys each run (cleanup is not timed).
  const body = new Uint8Array(2048).fill(7);
  const promoted = Array.from({ length: 10 }, (_, i) => `statement ${i}.pdf`);
  /** Puts `bytes` in `uploader`'s temporary storage under `filename`, through its presigned POST (untimed). */
  const upload = async (uploader: string, filename: string, bytes: Uint8Array) => {
    const [link] = (await storage.presignUploads(uploader, [filename], inFifteenMinutes()))._unsafeUnwrap();
    if (link === undefined) throw new Error('no upload link');
    const response = await sendUpload(link, bytes);
    if (response.status >= 300) throw new Error(`upload failed: ${response.status}`);
  };
  for (const filename of promoted) await upload(owner, filename, body);
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
  /**
   * `run(1)` against `run(10)`, interleaved: 3 pairs of warm-up, then `rounds` rounds of `perRound`
   * pairs. Every sample of each side (sorted, as `percentile` reads them) and each round's ratio of
   * the p50s, 10 over 1.
   */
  const oneAgainstTen = async (run: (count: number) => Promise<number>) => {
    for (let i = 0; i < 3; i += 1) {
      await run(1);
      await run(10);
    }
    const one: number[] = [];
    const ten: number[] = [];
    const roundRatios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const roundOne: number[] = [];
      const roundTen: number[] = [];
      for (let i = 0; i < perRound; i += 1) {
        roundOne.push(await run(1));
        roundTen.push(await run(10));
      }
      roundOne.sort((a, b) => a - b);
      roundTen.sort((a, b) => a - b);
      roundRatios.push(percentile(roundTen, 50) / percentile(roundOne, 50));
      one.push(...roundOne);
      ten.push(...roundTen);
    }
    return { one: one.sort((a, b) => a - b), ten: ten.sort((a, b) => a - b), ratios: roundRatios };
  };

  // The copy step alone, reported.
  const copyStep = await oneAgainstTen((count) => promoteOnce(promoted.slice(0, count), 8));
  const tenSequential: number[] = [];
  for (let i = 0; i < perRound; i += 1) {
    tenSequential.push(await promoteOnce(promoted, 1));
  }
  tenSequential.sort((a, b) => a - b);

  // The promotion as a create runs it, judged: the kit on memory adapters, its documents in S3
  // behind the slow proxy. Each create names files uploaded just before (untimed, straight to the
  // server): a promotion deletes the uploads it used, and an upload makes one document only.
  const memory = createMemoryAdapters();
  const kit = createOnboardingKit({
    ...memory,
    documentStorage: createS3DocumentStorage({ client: slowClient, bucket }),
  });
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const managerOwner = `manager:${manager.managerId}`;
  // Bytes of their own for every upload: S3's ETag (and the second its LastModified names) would
  // make two uploads of the same bytes within a second the same upload, which one use allows once.
  let uploads = 0;
  const uniqueBody = () => {
    uploads += 1;
    const bytes = new Uint8Array(body);
    new DataView(bytes.buffer).setUint32(0, uploads);
    return bytes;
  };
  const createNaming = async (count: number): Promise<number> => {
    const names = promoted.slice(0, count);
    for (const filename of names) await upload(managerOwner, filename, uniqueBody());
    const payload = exampleIndividualPayload({ idDocuments: names });
    return timeOnce(async () => (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap());
  };
  const promotion = await oneAgainstTen(createNaming);
  await slowProxy.close();

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const ratio = median(promotion.ratios);
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
    `| a create naming 1 file (promotion: HEAD, CopyObject, DeleteObjects) | ${ms(percentile(promotion.one, 50))} | ${ms(percentile(promotion.one, 95))} |`,
  );
  console.log(
    `| a create naming 10 files (10 HEADs, 10 CopyObjects 8 in flight, one DeleteObjects) | ${ms(percentile(promotion.ten, 50))} | ${ms(percentile(promotion.ten, 95))} |`,
  );
  console.log(
    `| copy step alone: 1 file (one CopyObject) | ${ms(percentile(copyStep.one, 50))} | ${ms(percentile(copyStep.one, 95))} |`,
  );
  console.log(
    `| copy step alone: 10 files, 8 in flight | ${ms(percentile(copyStep.ten, 50))} | ${ms(percentile(copyStep.ten, 95))} |`,
  );
  console.log(
    `| copy step alone: 10 files, one at a time | ${ms(percentile(tenSequential, 50))} | ${ms(percentile(tenSequential, 95))} |`,
  );
  console.log(
    `copy step alone, rounds' ratios of p50s, 10 copies / 1 copy: ${copyStep.ratios.map((r) => r.toFixed(2)).join(' / ')} (reported: two waves of copies, never below 2)`,
  );
  console.log(
    `promotion in a create, rounds' ratios of p50s, 10 files / 1 file: ${promotion.ratios.map((r) => r.toFixed(2)).join(' / ')}`,
  );
  checkGoal(
    's3.promotion.10-files-vs-1-file',
    `${ratio.toFixed(2)}x`,
    '<= 2x (a create: 8 copies in flight, 20 ms a request)',
    ratio <= 2,
  );
  finish();
} finally {
  await server.stop();
}
