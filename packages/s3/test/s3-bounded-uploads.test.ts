import { randomBytes, randomUUID } from 'node:crypto';
import { expectOk, presignOne } from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage, DEFAULT_MAX_UPLOAD_BYTES } from '../src/s3-document-storage.js';
import { type ConditionProxy, startConditionProxy } from './condition-proxy.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';

/**
 * S3 itself refuses a file over `maxUploadBytes` (default 25 MiB): every upload link is a presigned
 * POST whose policy carries `content-length-range` (a presigned PUT took 64 MiB against
 * the 25 MiB limit). s3rver and moto 5.2 do not enforce policies: the condition proxy does, as S3
 * documents it.
 */

const maxUploadBytes = 1024;
let proxy: ConditionProxy;
beforeAll(async () => {
  proxy = await startConditionProxy(inject('s3rverEndpoint'));
});
afterAll(() => proxy.close());

const postUpload = sendUpload;
const rangeOf = (fields: Readonly<Record<string, string>>) =>
  (
    JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as { conditions: unknown[] }
  ).conditions.find((condition) => Array.isArray(condition) && condition[0] === 'content-length-range');

describe('uploads bounded by S3 itself (maxUploadBytes)', () => {
  test('a file within the bound is stored; one byte over is refused and not stored', async () => {
    const client = s3ClientFor(proxy.endpoint);
    const bucket = await freshBucket(client);
    const storage = createS3DocumentStorage({ client, bucket, maxUploadBytes });
    const owner = `manager:${randomUUID()}`;
    const expiresAt = new Date(Date.now() + 15 * 60_000);

    const within = await expectOk(presignOne(storage, owner, 'fits.pdf', expiresAt));
    if (within.method !== 'POST') throw new Error('expected a POST upload');
    expect(Object.keys(within.fields)).toEqual(expect.arrayContaining(['key', 'Policy', 'X-Amz-Signature']));
    const stored = await postUpload(within, randomBytes(maxUploadBytes));
    expect(stored.status).toBeLessThan(300);
    expect((await expectOk(storage.statTemporary(owner, 'fits.pdf')))?.size).toBe(maxUploadBytes);

    const over = await expectOk(presignOne(storage, owner, 'too-big.pdf', expiresAt));
    if (over.method !== 'POST') throw new Error('expected a POST upload');
    const refused = await postUpload(over, randomBytes(maxUploadBytes + 1));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('EntityTooLarge');
    expect(await expectOk(storage.statTemporary(owner, 'too-big.pdf'))).toBeNull();
  });

  test('by default every link is bounded at 25 MiB (the kit default): one byte more is refused, not stored', async () => {
    const client = s3ClientFor(proxy.endpoint);
    const storage = createS3DocumentStorage({ client, bucket: await freshBucket(client) });
    const owner = `manager:${randomUUID()}`;
    const expiresAt = new Date(Date.now() + 15 * 60_000);
    const limit = 25 * 1024 * 1024;
    expect(DEFAULT_MAX_UPLOAD_BYTES).toBe(limit);

    const over = await expectOk(presignOne(storage, owner, 'big.pdf', expiresAt));
    if (over.method !== 'POST') throw new Error('expected a POST upload');
    expect(rangeOf(over.fields)).toEqual(['content-length-range', 0, limit]);
    const refused = await postUpload(over, new Uint8Array(limit + 1));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('EntityTooLarge');
    expect(await expectOk(storage.statTemporary(owner, 'big.pdf'))).toBeNull();

    const fits = await expectOk(presignOne(storage, owner, 'big.pdf', expiresAt));
    expect((await postUpload(fits, new Uint8Array(limit))).status).toBeLessThan(300);
    expect((await expectOk(storage.statTemporary(owner, 'big.pdf')))?.size).toBe(limit);
  });

  test('a bound that is not a whole number of bytes is refused when wiring', () => {
    const client = s3ClientFor(proxy.endpoint);
    for (const maxUploadBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createS3DocumentStorage({ client, bucket: 'any', maxUploadBytes })).toThrow(TypeError);
    }
  });
});
