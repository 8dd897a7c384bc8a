import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { expectErr, expectOk } from '@onboarding-kit/contract-tests';
import { describe, expect, inject, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { filenameDigestOf, s3ObjectKeys } from '../src/s3-object-keys.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';

/**
 * The per-owner bound of the temporary area on a real S3-compatible server (moto): batches racing
 * from two processes, markers left by a batch that died, uploads and links that expire. The bound's
 * behaviour common to every storage is in the contract suite (document-storage-contract.ts).
 */
const keys = s3ObjectKeys('tmp/', 'documents/');
const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);
const newOwner = () => `manager:${randomUUID()}`;

describe('S3 temporary area bound', () => {
  const client = s3ClientFor(inject('motoEndpoint'));

  it('never grants more names than the bound to batches racing from two processes', async () => {
    const bucket = await freshBucket(client);
    const bound = { maxTemporaryFilesPerOwner: 10 };
    // Two storages over one bucket: two processes of the host, each counting on its own.
    const first = createS3DocumentStorage({ client, bucket, ...bound });
    const second = createS3DocumentStorage({ client: s3ClientFor(inject('motoEndpoint')), bucket, ...bound });
    for (let round = 0; round < 3; round += 1) {
      const owner = newOwner();
      const batches = Array.from({ length: 8 }, (_, batch) =>
        (batch % 2 === 0 ? first : second).presignUploads(
          owner,
          [0, 1, 2].map((i) => `r${round}-b${batch}-${i}.pdf`),
          inFifteenMinutes(),
        ),
      );
      const settled = await Promise.all(batches);
      const granted = settled.filter((result) => result.isOk()).length;
      for (const result of settled) {
        if (result.isErr())
          expect(result.error).toMatchObject({ type: 'TemporaryStorageFull', maxFiles: 10 });
      }
      // 8 batches of 3 names asked at once for 10 places: at most 3 batches can hold.
      expect(granted * 3).toBeLessThanOrEqual(10);
      // What the owner's folder holds (the markers of the batches granted) agrees.
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: keys.temporaryFolder(owner) }),
      );
      const names = new Set(
        (listed.Contents ?? []).flatMap(({ Key }) => {
          const link = Key === undefined ? null : keys.uploadLinkOf(owner, Key);
          return link === null ? [] : [link.filenameDigest];
        }),
      );
      expect(names.size).toBe(granted * 3);
    }
  });

  it('counts the marker a crashed batch left until its link expires, then removes it', async () => {
    const bucket = await freshBucket(client);
    let nowMs = Date.now();
    const storage = createS3DocumentStorage({
      client,
      bucket,
      maxTemporaryFilesPerOwner: 2,
      now: () => new Date(nowMs),
    });
    const owner = newOwner();
    // A batch that marked its two links and died before answering them.
    const expiresAtMs = nowMs + 15 * 60_000;
    for (const filename of ['lost-1.pdf', 'lost-2.pdf']) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keys.uploadLink(owner, {
            filenameDigest: filenameDigestOf(filename),
            expiresAtMs,
            maxBytes: 1024,
          }),
          Body: new Uint8Array(0),
        }),
      );
    }
    const full = await expectErr(storage.presignUploads(owner, ['new.pdf'], inFifteenMinutes()));
    expect(full).toMatchObject({ type: 'TemporaryStorageFull' });
    if (full.type !== 'TemporaryStorageFull') throw new Error('unreachable');
    // Retry-After: when the first of the lost links expires.
    expect(full.retryAfterSeconds).toBe(15 * 60);
    // The listing of uploads never shows a marker.
    expect(await expectOk(storage.listTemporary(owner))).toEqual([]);

    nowMs = expiresAtMs + 1;
    await expectOk(storage.presignUploads(owner, ['new.pdf'], new Date(nowMs + 15 * 60_000)));
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: keys.temporaryFolder(owner) }),
    );
    expect(
      (listed.Contents ?? []).map(({ Key }) => Key && keys.uploadLinkOf(owner, Key)?.filenameDigest),
    ).toEqual([filenameDigestOf('new.pdf')]);
  });

  it('stops counting an upload after 24 hours, as core stops using it', async () => {
    const bucket = await freshBucket(client);
    let nowMs = Date.now();
    const storage = createS3DocumentStorage({
      client,
      bucket,
      maxTemporaryFilesPerOwner: 1,
      now: () => new Date(nowMs),
    });
    const owner = newOwner();
    const [link] = await expectOk(storage.presignUploads(owner, ['day-old.pdf'], inFifteenMinutes()));
    if (link === undefined) throw new Error('no link');
    expect((await sendUpload(link, 'bytes')).status).toBeLessThan(300);
    await expectErr(storage.presignUploads(owner, ['next.pdf'], new Date(nowMs + 15 * 60_000)));
    nowMs += 24 * 60 * 60_000 + 60_000;
    await expectOk(storage.presignUploads(owner, ['next.pdf'], new Date(nowMs + 15 * 60_000)));
  });

  it('refuses a batch larger than the bound on an empty area, and asks for no PUT', async () => {
    const bucket = await freshBucket(client);
    const storage = createS3DocumentStorage({ client, bucket, maxTemporaryFilesPerOwner: 2 });
    const owner = newOwner();
    await expectErr(storage.presignUploads(owner, ['a.pdf', 'b.pdf', 'c.pdf'], inFifteenMinutes()));
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: keys.temporaryFolder(owner) }),
    );
    expect(listed.Contents ?? []).toEqual([]);
  });
});

describe('upload link markers', () => {
  it('name the file by a digest only, and no file key reads as a marker nor the reverse', () => {
    const owner = 'client:a/b%c';
    for (const filename of ['résumé final.pdf', '100% sure.pdf', 'a.b.c', 'upload-links', '1.2.3']) {
      const marker = {
        filenameDigest: filenameDigestOf(filename),
        expiresAtMs: 1_790_000_000_000,
        maxBytes: 26_214_400,
      };
      const key = keys.uploadLink(owner, marker);
      expect(keys.uploadLinkOf(owner, key)).toEqual(marker);
      expect(key.split('/upload-links/')[1]).not.toContain(encodeURIComponent(filename));
      expect(keys.filenameOf(owner, key)).toBeNull();
      expect(keys.uploadLinkOf(owner, keys.temporary(owner, filename))).toBeNull();
      expect(keys.uploadLinkOf('client:other', key)).toBeNull();
    }
  });
});
