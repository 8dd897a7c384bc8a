import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { expectOk, presignOne, runDocumentStorageContract } from '@onboarding-kit/contract-tests';
import { afterAll, inject } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { attachmentFilenameOf } from './attachment-filename-of.js';
import { type ConditionProxy, startConditionProxy } from './condition-proxy.js';
import { freshBucket, readObject, s3ClientFor } from './s3-compatible-client.js';

// On s3rver: it applies the signed response-content-disposition as S3 does (moto ignores it), so
// the downloaded filename is the server's own answer. Through the condition proxy, which enforces
// what S3 does and s3rver does not: conditional copies and deletes (the contract requires them).
const directClient = s3ClientFor(inject('s3rverEndpoint'));
const keys = s3ObjectKeys('tmp/', 'documents/');
let sharedBucket: Promise<string> | undefined;
let proxy: Promise<ConditionProxy> | undefined;
afterAll(async () => {
  await (await proxy)?.close();
});

runDocumentStorageContract({
  name: 'S3 (s3rver)',
  setup: async (bound) => {
    sharedBucket ??= freshBucket(directClient);
    proxy ??= startConditionProxy(inject('s3rverEndpoint'));
    const bucket = await sharedBucket;
    const client = s3ClientFor((await proxy).endpoint);
    const storage = createS3DocumentStorage({ client, bucket, ...bound });
    return {
      storage,
      putTemporaryFile: async (owner, filename, bytes) => {
        // With a bound: through the storage's own link and the proxy, which holds S3's size policy.
        // Without: a POST signed here, straight to s3rver, as a link of the storage would upload (the
        // listing test uploads 1,200 files to one owner; counting the owner's folder before each
        // would only list it again 1,200 times).
        const upload =
          bound === undefined
            ? await createPresignedPost(directClient, {
                Bucket: bucket,
                Key: keys.temporary(owner, filename),
                Expires: 60,
              }).then(({ url, fields }) => ({ url, method: 'POST' as const, headers: {}, fields }))
            : await expectOk(presignOne(storage, owner, filename, new Date(Date.now() + 60_000)));
        const response = await sendUpload(upload, bytes);
        if (response.status >= 300)
          throw new Error(`upload of ${filename}: ${response.status} ${await response.text()}`);
      },
      download: async (url) => {
        const response = await fetch(url);
        if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
        return {
          body: new Uint8Array(await response.arrayBuffer()),
          filename: attachmentFilenameOf(response.headers.get('content-disposition')) ?? '',
        };
      },
      inspect: {
        readPermanent: async (key) => toBytes(await readObject(directClient, bucket, keys.permanent(key))),
        readTemporary: async (owner, filename) =>
          toBytes(await readObject(directClient, bucket, keys.temporary(owner, filename))),
      },
    };
  },
});

const toBytes = (buffer: Buffer | null): Uint8Array | null =>
  buffer === null ? null : new Uint8Array(buffer);
