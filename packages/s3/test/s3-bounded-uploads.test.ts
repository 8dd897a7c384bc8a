import { randomBytes, randomUUID } from 'node:crypto';
import { expectOk } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { type ConditionProxy, startConditionProxy } from './condition-proxy.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';

/**
 * With `maxUploadBytes`, S3 itself refuses a file over the bound (a presigned POST
 * whose policy carries `content-length-range`). s3rver does not enforce policies: the condition
 * proxy does, as S3 documents it.
 */

const maxUploadBytes = 1024;
let proxy: ConditionProxy;
beforeAll(async () => {
  proxy = await startConditionProxy(inject('s3rverEndpoint'));
});
afterAll(() => proxy.close());

/** What a browser or curl does with a POST upload answer: the fields first, then the file. */
const postUpload = async (upload: { url: string; fields: Record<string, string> }, bytes: Uint8Array) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), 'file');
  return fetch(upload.url, { method: 'POST', body: form });
};

describe('uploads bounded by S3 itself (maxUploadBytes)', () => {
  test('a file within the bound is stored; one byte over is refused and not stored', async () => {
    const client = s3ClientFor(proxy.endpoint);
    const bucket = await freshBucket(client);
    const storage = createS3DocumentStorage({ client, bucket, maxUploadBytes });
    const owner = `manager:${randomUUID()}`;
    const expiresAt = new Date(Date.now() + 15 * 60_000);

    const within = await expectOk(storage.presignUpload(owner, 'fits.pdf', expiresAt));
    if (within.method !== 'POST') throw new Error('expected a POST upload');
    expect(Object.keys(within.fields)).toEqual(expect.arrayContaining(['key', 'Policy', 'X-Amz-Signature']));
    const stored = await postUpload(within, randomBytes(maxUploadBytes));
    expect(stored.status).toBeLessThan(300);
    expect((await expectOk(storage.statTemporary(owner, 'fits.pdf')))?.size).toBe(maxUploadBytes);

    const over = await expectOk(storage.presignUpload(owner, 'too-big.pdf', expiresAt));
    if (over.method !== 'POST') throw new Error('expected a POST upload');
    const refused = await postUpload(over, randomBytes(maxUploadBytes + 1));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('EntityTooLarge');
    expect(await expectOk(storage.statTemporary(owner, 'too-big.pdf'))).toBeNull();
  });

  test('without the option, uploads stay presigned PUTs', async () => {
    const client = s3ClientFor(proxy.endpoint);
    const storage = createS3DocumentStorage({ client, bucket: await freshBucket(client) });
    const upload = await expectOk(
      storage.presignUpload(`manager:${randomUUID()}`, 'a.pdf', new Date(Date.now() + 60_000)),
    );
    expect(upload.method).toBe('PUT');
  });
});
