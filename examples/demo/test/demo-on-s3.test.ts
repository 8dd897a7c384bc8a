import { randomUUID } from 'node:crypto';
import {
  CreateBucketCommand,
  GetBucketLifecycleConfigurationCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { openDemoDatabase } from './support/demo-database.js';
import {
  attachmentName,
  demoCaller,
  downloadDocument,
  sampleBytes,
  uploadThroughLinks,
} from './support/demo-http.js';
import { startTestDemo } from './support/test-demo.js';

const endpoint = inject('demoS3Endpoint');
// s3rver's default account.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let s3: S3Client;
beforeAll(() => {
  s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
});
afterAll(() => s3.destroy());

const freshBucket = async (): Promise<string> => {
  const bucket = `demo-${randomUUID().slice(0, 13)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
};

const s3Environment = (bucket: string) => ({
  S3_BUCKET: bucket,
  S3_ENDPOINT: endpoint,
  S3_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
});

/** Upload through the presigned S3 link, create an individual naming it, download it back. */
const uploadCreateDownload = async (origin: string, bucket: string) => {
  const call = demoCaller(origin);
  const key = demoIdentities.managerA.apiKey;
  const filename = 'relevé bancaire 2025.pdf';
  const bytes = sampleBytes(200_000, 6);
  await uploadThroughLinks(call, key, { [filename]: bytes });
  const uploads = await call('GET', '/manager/v1/uploads', { key });
  // Beside the uploads the demo seeds for the API docs' examples.
  expect(uploads.body.files.filter((file: { filename: string }) => file.filename === filename)).toEqual([
    expect.objectContaining({ filename, size: bytes.byteLength }),
  ]);

  const created = await call('POST', '/manager/v1/clients/individuals', {
    key,
    body: exampleIndividualPayload({ idDocuments: [filename] }),
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(created.status).toBe(201);
  const documentKey: string = created.body.individualProfile.idDocuments[0];
  // The document is an object of the bucket, under the permanent prefix (its key percent-encoded).
  const head = await s3.send(
    new HeadObjectCommand({ Bucket: bucket, Key: `documents/${encodeURIComponent(documentKey)}` }),
  );
  expect(head.ContentLength).toBe(bytes.byteLength);
  expect(
    (await call('GET', '/manager/v1/uploads', { key })).body.files.map(
      (file: { filename: string }) => file.filename,
    ),
  ).not.toContain(filename);

  const downloaded = await downloadDocument(call, key, documentKey);
  expect(downloaded.bytes).toEqual(bytes);
  expect(attachmentName(downloaded.contentDisposition)).toBe(filename);
  return created.body.id as string;
};

describe('with S3_BUCKET: documents in S3 through presigned links', () => {
  test('alone (memory for the rest): upload → create → download with real bytes', async () => {
    const bucket = await freshBucket();
    const demo = await startTestDemo(s3Environment(bucket));
    try {
      expect(demo.adapters.documentStorage).toBe('s3');
      expect(demo.adapters.persistence).toBe('memory');
      // No memory links to serve.
      expect((await fetch(`${demo.origin}/storage/uploads/anything`, { method: 'PUT' })).status).toBe(404);
      await uploadCreateDownload(demo.origin, bucket);
      // s3rver has no lifecycle rules: the demo says so and goes on.
      expect(demo.warnings).toEqual([expect.stringContaining('(NotImplemented)')]);
      expect(demo.logged).toEqual([]);
    } finally {
      await demo.close();
    }
  });

  test('together with DATABASE_URL: the same flow, the client in PostgreSQL', async () => {
    const bucket = await freshBucket();
    const database = await openDemoDatabase();
    const demo = await startTestDemo({ ...s3Environment(bucket), DATABASE_URL: database.url });
    try {
      expect(demo.adapters.documentStorage).toBe('s3');
      expect(demo.adapters.persistence).toBe('postgres');
      const clientId = await uploadCreateDownload(demo.origin, bucket);
      const client = await demo.adapters.ports.clients.findById(clientId);
      expect(client._unsafeUnwrap()?.id).toBe(clientId);
      expect(demo.logged).toEqual([]);
    } finally {
      await demo.close();
      await database.drop();
    }
  });

  test('on a server with lifecycle rules, the start puts the rule that empties tmp/ after a day', async () => {
    const motoEndpoint = inject('demoMotoEndpoint');
    const moto = new S3Client({
      endpoint: motoEndpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
    try {
      const bucket = `demo-${randomUUID().slice(0, 13)}`;
      await moto.send(new CreateBucketCommand({ Bucket: bucket }));
      const demo = await startTestDemo({ ...s3Environment(bucket), S3_ENDPOINT: motoEndpoint });
      await demo.close();
      expect(demo.warnings).toEqual([]);
      const lifecycle = await moto.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }));
      expect(lifecycle.Rules).toEqual([
        expect.objectContaining({ Filter: { Prefix: 'tmp/' }, Status: 'Enabled', Expiration: { Days: 1 } }),
      ]);
    } finally {
      moto.destroy();
    }
  });

  test('a bucket that does not exist stops the start, naming it', async () => {
    const missing = `demo-missing-${randomUUID().slice(0, 8)}`;
    await expect(startTestDemo(s3Environment(missing))).rejects.toThrow(
      `Could not reach the S3 bucket "${missing}"`,
    );
  });
});
