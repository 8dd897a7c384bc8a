import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { expectOk } from '@onboarding-kit/contract-tests';
import { settleBounded } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { describe, expect, inject, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';

/** Counts the commands a client sends, by name. */
const countCommands = (client: S3Client): Map<string, number> => {
  const counts = new Map<string, number>();
  client.middlewareStack.add(
    (next, context) => (args) => {
      const name = context.commandName ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize' },
  );
  return counts;
};

// Over two ListObjectsV2 pages (1,000 keys each) and over two DeleteObjects batches.
const FILE_COUNT = 2_050;

// On moto: s3rver's batch delete races on the folder it empties and answers 500. Its 2,050 uploads
// take moto (a Python server) 10-40 s of a loaded two-core machine: the test has two minutes.
describe('S3 document storage at scale', { timeout: 120_000 }, () => {
  const endpoint = inject('motoEndpoint');
  it(`lists and deletes ${FILE_COUNT} uploads of one owner, page by page and batch by batch`, async () => {
    const client = s3ClientFor(endpoint);
    const bucket = await freshBucket(client);
    const counts = countCommands(client);
    const storage = createS3DocumentStorage({ client, bucket });
    const owner = `client:${randomUUID()}`;
    const neighbour = `client:${randomUUID()}`;
    const filenames = Array.from({ length: FILE_COUNT }, (_, index) => `scan ${index} #${index % 7}.pdf`);
    // Signed here, as the storage's links sign them, without its per-owner bound (100 files) and its
    // link markers (s3-temporary-area-bound.test.ts): this test is about listing and deleting.
    const keys = s3ObjectKeys('tmp/', 'documents/');
    const signUpload = (uploader: string, filename: string) =>
      ResultAsync.fromPromise(
        createPresignedPost(client, {
          Bucket: bucket,
          Key: keys.temporary(uploader, filename),
          Expires: 900,
        }),
        String,
      ).map(({ url, fields }) => ({ url, method: 'POST' as const, headers: {}, fields }));

    const uploads = await settleBounded(filenames, 32, (filename) =>
      signUpload(owner, filename)
        .andThen((presigned) => ResultAsync.fromPromise(sendUpload(presigned, filename), String))
        .map((response) => response.status < 300),
    );

    expect(uploads.map(({ result }) => result._unsafeUnwrap())).toEqual(filenames.map(() => true));
    const neighbourUpload = await expectOk(signUpload(neighbour, 'scan 1 #1.pdf'));
    expect((await sendUpload(neighbourUpload, 'x')).status).toBeLessThan(300);

    const listed = await expectOk(storage.listTemporary(owner));
    expect(listed.length).toBe(FILE_COUNT);
    expect(new Set(listed.map((file) => file.filename))).toEqual(new Set(filenames));
    for (const file of listed) expect(file.size).toBe(Buffer.byteLength(file.filename));
    expect(counts.get('ListObjectsV2Command')).toBe(3);

    // A listing is bounded: 1,500 files at most, in two pages, whatever the owner uploaded.
    const bounded = createS3DocumentStorage({ client, bucket, maxListedTemporaryFiles: 1_500 });
    const before = counts.get('ListObjectsV2Command') ?? 0;
    const cut = await expectOk(bounded.listTemporary(owner));
    expect(cut).toHaveLength(1_500);
    expect(new Set(cut.map((file) => file.filename)).size).toBe(1_500);
    expect((counts.get('ListObjectsV2Command') ?? 0) - before).toBe(2);

    await expectOk(
      storage.deleteTemporary(
        owner,
        listed.map(({ filename, version }) => ({ filename, version })),
      ),
    );
    expect(counts.get('DeleteObjectsCommand')).toBe(3);
    expect(await expectOk(storage.listTemporary(owner))).toEqual([]);
    expect((await expectOk(storage.listTemporary(neighbour))).map((file) => file.filename)).toEqual([
      'scan 1 #1.pdf',
    ]);
  });
});
