import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  randomUuids,
} from '@onboarding-kit/core';
import { nodeTextHashing } from '@onboarding-kit/memory';
import { createPostgresAdapters } from '@onboarding-kit/postgres';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { startPassThroughProxy } from '../../../test-support/pass-through-proxy.js';
import { openDemoDatabase } from './support/demo-database.js';
import { demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { type DemoProcess, spawnDemoProcess } from './support/demo-process.js';

/**
 * The orphan sweep after a real crash: the demo (PostgreSQL + S3) is killed after S3 made a permanent
 * copy and before its transaction committed. The copy is an orphan (no index row, no client); the
 * sweep removes it once past the grace period and keeps every referenced document.
 */

const endpoint = inject('demoS3Endpoint');
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  s3.destroy();
});

/**
 * Passes every request to the S3 server, but a CopyObject whose source names `crash` is performed
 * and then never answered: the demo is left between its copy and its commit.
 */
const startCopyHoldingProxy = async () => {
  let copied: () => void = () => undefined;
  const copyDone = new Promise<void>((resolve) => {
    copied = resolve;
  });
  const proxy = await startPassThroughProxy(endpoint, (incoming, outgoing, forward) => {
    const source = incoming.headers['x-amz-copy-source'];
    const hold = incoming.method === 'PUT' && typeof source === 'string' && source.includes('crash');
    forward(incoming, outgoing, {
      onAnswer: (answer) => {
        if (!hold) return false;
        answer.resume();
        answer.once('end', copied);
        return true;
      },
    });
  });
  return { ...proxy, copyDone };
};

const permanentKeys = async (bucket: string): Promise<string[]> =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'documents/' }))).Contents ?? []).map(
    (object) => object.Key ?? '',
  );

test('a demo killed between its copy and its commit leaves an orphan the sweep removes, and only it', async () => {
  const database = await openDemoDatabase();
  cleanups.push(() => database.drop());
  const bucket = `sweep-${randomUUID().slice(0, 13)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const proxy = await startCopyHoldingProxy();
  cleanups.push(() => proxy.close());

  const demo: DemoProcess = spawnDemoProcess({
    DATABASE_URL: database.url,
    S3_BUCKET: bucket,
    S3_ENDPOINT: proxy.endpoint,
    S3_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  });
  cleanups.push(() => demo.kill());
  const [, origin] = await demo.waitFor(/listening on (http:\/\/localhost:\d+)/, 30_000);
  const call = demoCaller(origin ?? '');
  const key = demoIdentities.managerA.apiKey;
  // The document the demo seeds for the API docs' download examples (client a2's passport).
  const seeded = await permanentKeys(bucket);
  expect(seeded).toHaveLength(1);

  await uploadThroughLinks(call, key, {
    'kept.pdf': sampleBytes(1000, 1),
    'crash.pdf': sampleBytes(1000, 2),
  });
  const kept = await call('POST', '/manager/v1/clients/individuals', {
    key,
    body: exampleIndividualPayload({ idDocuments: ['kept.pdf'] }),
  });
  expect(kept.status).toBe(201);
  const keptKey: string = kept.body.individualProfile.idDocuments[0];

  // This create's copy is made, its answer held: the process is killed before it commits.
  const crashing = call('POST', '/manager/v1/clients/individuals', {
    key,
    body: exampleIndividualPayload({ idDocuments: ['crash.pdf'] }),
  }).catch(() => null);
  await proxy.copyDone;
  demo.kill();
  await demo.exited;
  await crashing;

  const left = (await permanentKeys(bucket)).filter((objectKey) => !seeded.includes(objectKey));
  expect(left).toHaveLength(2);
  const orphan = left.find((objectKey) => objectKey.includes('crash.pdf'));
  expect(orphan).toBeDefined();

  // Another instance sweeps, on the same database and bucket, its clock past the 24-hour grace.
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  cleanups.push(() => pool.end());
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool }),
    documentStorage: createS3DocumentStorage({ client: s3, bucket }),
    clock: { now: () => new Date(Date.now() + 25 * 60 * 60_000) },
    ids: randomUuids,
    hashing: nodeTextHashing,
  });
  expect((await kit.documents.sweepOrphanDocuments())._unsafeUnwrap()).toBe(1);
  expect((await permanentKeys(bucket)).sort()).toEqual(
    [...seeded, left.find((objectKey) => objectKey !== orphan)].sort(),
  );
  await expect(
    s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `documents/${encodeURIComponent(keptKey)}` })),
  ).resolves.toBeDefined();
  // A second sweep (another instance, a later run) finds nothing more to remove.
  expect((await kit.documents.sweepOrphanDocuments())._unsafeUnwrap()).toBe(0);
}, 90_000);
