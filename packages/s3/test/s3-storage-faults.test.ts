import { randomBytes, randomUUID } from 'node:crypto';
import { expectErr, expectOk, presignOne } from '@onboarding-kit/contract-tests';
import { describe, expect, inject, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { type CopyFault, startCopyFaultProxy } from './copy-fault-proxy.js';
import { freshBucket, readObject, s3ClientFor } from './s3-compatible-client.js';
import { freePort } from './start-s3-servers.js';

const keys = s3ObjectKeys('tmp/', 'documents/');
const unavailable = { type: 'StorageUnavailable', store: 's3' };
const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);

describe('S3 document storage when the endpoint is unreachable', () => {
  it('answers StorageUnavailable from every call that reaches the server, and never throws', async () => {
    const closedPort = await freePort();
    const client = s3ClientFor(`http://127.0.0.1:${closedPort}`, { maxAttempts: 1 });
    const storage = createS3DocumentStorage({ client, bucket: 'kit-unreachable' });
    const owner = `manager:${randomUUID()}`;
    const item = { owner, filename: 'a.pdf', key: `${randomUUID()}_a.pdf`, version: '"0"' };

    expect(await expectErr(storage.listTemporary(owner))).toMatchObject(unavailable);
    expect(await expectErr(storage.statTemporary(owner, 'a.pdf'))).toMatchObject(unavailable);
    expect(await expectErr(storage.copyToPermanent([item]))).toMatchObject(unavailable);
    expect(
      await expectErr(storage.deleteTemporary(owner, [{ filename: 'a.pdf', version: '"0"' }])),
    ).toMatchObject(unavailable);
    expect(await expectErr(storage.deletePermanent([item.key]))).toMatchObject(unavailable);
    expect(await expectErr(storage.missingPermanent([item.key]))).toMatchObject(unavailable);
    // Presigning counts the owner's area first (its per-owner bound): no link without the server.
    expect(await expectErr(presignOne(storage, owner, 'a.pdf', inFifteenMinutes()))).toMatchObject(
      unavailable,
    );
  });
});

describe('S3 document storage on a bucket that does not exist', () => {
  it('answers StorageUnavailable, not "no such document", when asked which documents are missing', async () => {
    const client = s3ClientFor(inject('motoEndpoint'));
    const storage = createS3DocumentStorage({ client, bucket: `kit-missing-${randomUUID()}` });
    expect(await expectErr(storage.missingPermanent([`${randomUUID()}_a.pdf`]))).toMatchObject(unavailable);
  });
});

describe.each<CopyFault>(['error-inside-200', 'empty-200'])('CopyObject answering %s', (fault) => {
  it('fails the promotion, removes the copies that succeeded and keeps every temporary file', async () => {
    const endpoint = inject('motoEndpoint');
    const direct = s3ClientFor(endpoint);
    const bucket = await freshBucket(direct);
    const proxy = await startCopyFaultProxy(endpoint, fault);
    try {
      const storage = createS3DocumentStorage({
        client: s3ClientFor(proxy.endpoint, { maxAttempts: 2 }),
        bucket,
        promotionConcurrency: 2,
      });
      const owner = `client:${randomUUID()}`;
      const filenames = ['first.pdf', 'second.pdf', 'poisoned.pdf', 'fourth.pdf'];
      for (const filename of filenames) {
        const upload = await expectOk(presignOne(storage, owner, filename, inFifteenMinutes()));
        expect((await sendUpload(upload, randomBytes(32))).status).toBeLessThan(300);
      }
      const listed = await expectOk(storage.listTemporary(owner));
      const items = filenames.map((filename) => ({
        owner,
        filename,
        key: `${randomUUID()}_${filename}`,
        version: listed.find((file) => file.filename === filename)?.version ?? '',
      }));

      const failure = await expectErr(storage.copyToPermanent(items));
      expect(failure).toMatchObject(unavailable);
      // The SDK read the 200 as the failure it is (an XML <Error> body, or "S3 aborted request").
      expect(String(((failure as { cause?: unknown }).cause as Error).message)).toMatch(
        fault === 'empty-200' ? /aborted/ : /internal error/,
      );
      for (const item of items) expect(await readObject(direct, bucket, keys.permanent(item.key))).toBeNull();
      const left = await expectOk(storage.listTemporary(owner));
      expect(left.map((file) => file.filename).sort()).toEqual([...filenames].sort());

      // Through the same proxy, a promotion without the faulted file goes through.
      const healthy = items.filter((item) => !item.filename.startsWith('poisoned'));
      await expectOk(storage.copyToPermanent(healthy));
      for (const item of healthy)
        expect(await readObject(direct, bucket, keys.permanent(item.key))).not.toBeNull();
    } finally {
      await proxy.close();
    }
  });
});
