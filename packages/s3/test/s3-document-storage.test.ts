import { randomBytes, randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { expectOk, presignOne } from '@onboarding-kit/contract-tests';
import type {
  DocumentStorage,
  PresignedUpload,
  PromotionItem,
  StorageUnavailable,
} from '@onboarding-kit/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { attachmentFilenameOf } from './attachment-filename-of.js';
import { freshBucket, readObject, s3ClientFor } from './s3-compatible-client.js';
import { s3TestServers } from './s3-test-servers.js';

const keys = s3ObjectKeys('tmp/', 'documents/');
const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);
const newOwner = () => `manager:${randomUUID()}`;

const upload = async (storage: DocumentStorage, owner: string, filename: string, body: Uint8Array) => {
  const presigned = await expectOk(presignOne(storage, owner, filename, inFifteenMinutes()));
  const response = await sendUpload(presigned, body);
  expect(response.status, await response.text()).toBeLessThan(300);
};

// Names the spec allows (decisions §4) that break naive key or header handling.
const trickyFilenames = [
  'Relevé de compte été 2024.pdf',
  'a+b=c & d.pdf',
  '100% sure %20 not-an-escape.txt',
  'hash#tag?query.png',
  'say "hi" it\'s (1).txt',
  '日本語 ファイル.pdf',
  'emoji 🎉 party.txt',
  'semi;colon,comma  two spaces.txt',
  '..hidden.',
];

/** Promotion items as core builds them: each file's current version, read with statTemporary. */
const promotionItems = (storage: DocumentStorage, owner: string, filenames: readonly string[]) =>
  Promise.all(
    filenames.map(async (filename): Promise<PromotionItem> => {
      const file = await expectOk(storage.statTemporary(owner, filename));
      return { owner, filename, key: `${randomUUID()}_${filename}`, version: file?.version ?? '' };
    }),
  );

describe.each(s3TestServers())('S3 document storage on $name', ({ name, endpoint }) => {
  let client: S3Client;
  let bucket: string;
  let storage: DocumentStorage;

  beforeAll(async () => {
    client = s3ClientFor(endpoint);
    bucket = await freshBucket(client);
    storage = createS3DocumentStorage({ client, bucket });
  });

  it('keeps uploads in a per-owner folder with an ASCII key that encodes owner and filename', () => {
    expect(keys.temporary('manager:1a2b', 'a b/é.pdf')).toBe('tmp/manager%3A1a2b/a%20b%2F%C3%A9.pdf');
    expect(keys.permanent('9f_x y.pdf')).toBe('documents/9f_x%20y.pdf');
  });

  it('uploads through the presigned PUT, then lists and stats the file with its exact size', async () => {
    const owner = newOwner();
    const body = randomBytes(4321);
    const before = Date.now();
    await upload(storage, owner, 'passport.pdf', body);

    expect(await readObject(client, bucket, keys.temporary(owner, 'passport.pdf'))).toEqual(body);
    const listed = await expectOk(storage.listTemporary(owner));
    expect(listed.map(({ filename, size }) => ({ filename, size }))).toEqual([
      { filename: 'passport.pdf', size: 4321 },
    ]);
    // S3 keeps LastModified to the second.
    expect(listed[0]?.uploadedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(listed[0]?.uploadedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const stat = await expectOk(storage.statTemporary(owner, 'passport.pdf'));
    expect(stat?.size).toBe(4321);
  });

  it('stats an empty file as 0 bytes, and a missing one as null', async () => {
    const owner = newOwner();
    await upload(storage, owner, 'empty.txt', new Uint8Array());
    expect((await expectOk(storage.statTemporary(owner, 'empty.txt')))?.size).toBe(0);
    expect(await expectOk(storage.statTemporary(owner, 'never-uploaded.pdf'))).toBeNull();
  });

  it('replaces a file uploaded again under the same name', async () => {
    const owner = newOwner();
    await upload(storage, owner, 'id.png', randomBytes(10));
    await upload(storage, owner, 'id.png', randomBytes(25));
    const listed = await expectOk(storage.listTemporary(owner));
    expect(listed.map(({ filename, size }) => [filename, size])).toEqual([['id.png', 25]]);
  });

  it('shows each owner only its own uploads, even under the same filename', async () => {
    const manager = newOwner();
    const client_ = `client:${randomUUID()}`;
    await upload(storage, manager, 'same.pdf', randomBytes(3));
    await upload(storage, client_, 'same.pdf', randomBytes(7));
    await upload(storage, client_, 'other.pdf', randomBytes(1));
    expect(
      (await expectOk(storage.listTemporary(manager))).map((file) => [file.filename, file.size]),
    ).toEqual([['same.pdf', 3]]);
    expect(
      (await expectOk(storage.listTemporary(client_))).map((file) => [file.filename, file.size]).sort(),
    ).toEqual([
      ['other.pdf', 1],
      ['same.pdf', 7],
    ]);
    expect(await expectOk(storage.listTemporary(newOwner()))).toEqual([]);
  });

  it('keeps tricky filenames byte for byte through upload, listing, promotion and download', async () => {
    const owner = newOwner();
    const contents = new Map(
      trickyFilenames.map((filename) => [filename, randomBytes(64 + filename.length)]),
    );
    for (const [filename, body] of contents) await upload(storage, owner, filename, body);

    const listed = await expectOk(storage.listTemporary(owner));
    expect(listed.map((file) => file.filename).sort()).toEqual([...trickyFilenames].sort());
    for (const file of listed) expect(file.size).toBe(contents.get(file.filename)?.length);

    const items = await promotionItems(storage, owner, trickyFilenames);
    await expectOk(storage.copyToPermanent(items));
    for (const item of items) {
      const url = await expectOk(storage.presignDownload(item.key, item.filename, inFifteenMinutes()));
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(contents.get(item.filename));
      const signed = new URL(url).searchParams.get('response-content-disposition');
      expect(signed).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
      expect(attachmentFilenameOf(signed)).toBe(item.filename);
      // moto ignores response-header overrides; s3rver applies them as S3 does.
      if (name === 's3rver') expect(response.headers.get('content-disposition')).toBe(signed);
    }
  });

  it('a document uploaded as HTML downloads as bytes to save, never as a page to render', async () => {
    const owner = newOwner();
    const filename = 'statement.html';
    const page = '<html><body><script>document.title="xss"</script></body></html>';
    const presigned = await expectOk(presignOne(storage, owner, filename, inFifteenMinutes()));
    // The uploader names a type of its own, as a form field and as the file part's type. S3 refuses
    // a field its policy does not cover; both emulators keep it (stored and served as text/html
    // before this link named the type), as other S3-compatible stores may.
    const form = new FormData();
    if (presigned.method !== 'POST') expect.fail('S3 uploads are presigned POSTs');
    for (const [field, value] of Object.entries(presigned.fields)) form.append(field, value);
    form.append('Content-Type', 'text/html');
    form.append('file', new Blob([page], { type: 'text/html' }), filename);
    const sent = await fetch(presigned.url, { method: 'POST', body: form, headers: { connection: 'close' } });
    expect(sent.status, await sent.text()).toBeLessThan(300);
    const [item] = await promotionItems(storage, owner, [filename]);
    if (item === undefined) expect.fail('one item');
    await expectOk(storage.copyToPermanent([item]));
    const url = await expectOk(storage.presignDownload(item.key, item.filename, inFifteenMinutes()));
    const response = await fetch(url);
    expect(await response.text()).toBe(page);
    // Whatever type the object was stored with, the link names bytes to save.
    expect(new URL(url).searchParams.get('response-content-type')).toBe('application/octet-stream');
    // moto ignores response-header overrides; s3rver applies them as S3 does.
    if (name === 's3rver') expect(response.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('copies to permanent keys leaving the temporaries, then deletes each side on request', async () => {
    const owner = newOwner();
    const bodies = [randomBytes(11), randomBytes(12)];
    await upload(storage, owner, 'one.pdf', bodies[0] as Buffer);
    await upload(storage, owner, 'two.pdf', bodies[1] as Buffer);
    const items: PromotionItem[] = await promotionItems(storage, owner, ['one.pdf', 'two.pdf']);

    await expectOk(storage.copyToPermanent(items));
    expect(await readObject(client, bucket, keys.permanent(items[0]?.key ?? ''))).toEqual(bodies[0]);
    expect(await readObject(client, bucket, keys.permanent(items[1]?.key ?? ''))).toEqual(bodies[1]);
    expect((await expectOk(storage.listTemporary(owner))).length).toBe(2);

    await expectOk(
      storage.deleteTemporary(
        owner,
        items.map(({ filename, version }) => ({ filename, version })),
      ),
    );
    expect(await expectOk(storage.listTemporary(owner))).toEqual([]);
    expect(await readObject(client, bucket, keys.permanent(items[0]?.key ?? ''))).toEqual(bodies[0]);

    await expectOk(storage.deletePermanent(items.map((item) => item.key)));
    for (const item of items) expect(await readObject(client, bucket, keys.permanent(item.key))).toBeNull();
    // Deleting what is already gone is not a failure (a compensation may run twice).
    await expectOk(storage.deletePermanent(items.map((item) => item.key)));
  });

  it('fails a promotion with a missing source and leaves no permanent copy behind', async () => {
    const owner = newOwner();
    const narrow = createS3DocumentStorage({ client, bucket, promotionConcurrency: 2 });
    const present = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'];
    for (const filename of present) await upload(narrow, owner, filename, randomBytes(5));
    const items = await promotionItems(narrow, owner, [
      ...present.slice(0, 2),
      'missing.pdf',
      ...present.slice(2),
    ]);

    const result = await narrow.copyToPermanent(items);
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'TemporaryFilesChanged', filenames: ['missing.pdf'] });
    for (const item of items) expect(await readObject(client, bucket, keys.permanent(item.key))).toBeNull();
    expect((await expectOk(narrow.listTemporary(owner))).length).toBe(4);
  });

  it('copies in parallel, never more at once than the bound', async () => {
    const owner = newOwner();
    const bound = 3;
    const bounded = createS3DocumentStorage({
      client: s3ClientFor(endpoint),
      bucket,
      promotionConcurrency: bound,
    });
    const filenames = Array.from({ length: 10 }, (_, index) => `file-${index}.bin`);
    for (const filename of filenames) await upload(bounded, owner, filename, randomBytes(100));

    const observedClient = s3ClientFor(endpoint);
    let inFlight = 0;
    let maxInFlight = 0;
    // Counts CopyObject requests on the wire: instrumentation, the real server still answers.
    observedClient.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'CopyObjectCommand') return next(args);
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await next(args);
        } finally {
          inFlight -= 1;
        }
      },
      { step: 'finalizeRequest' },
    );
    const observed = createS3DocumentStorage({ client: observedClient, bucket, promotionConcurrency: bound });
    const items = await promotionItems(observed, owner, filenames);
    await expectOk(observed.copyToPermanent(items));

    expect(maxInFlight).toBe(bound);
    for (const item of items)
      expect(await readObject(client, bucket, keys.permanent(item.key))).not.toBeNull();
  });

  it('links expire: a link signed to have ended is refused, a live one works', async () => {
    const owner = newOwner();
    const past = new Date(Date.now() - 60_000);
    const expiredUpload = await expectOk(presignOne(storage, owner, 'late.pdf', past));
    // Neither test server checks a POST policy's expiration (S3 answers 403): its date is checked.
    // Whole seconds: the policy ends at most a second before the asked time, never after.
    const ends = policyExpirationOf(expiredUpload);
    expect(ends).toBeLessThanOrEqual(past.getTime());
    expect(ends).toBeGreaterThan(past.getTime() - 2000);

    await upload(storage, owner, 'doc.pdf', randomBytes(8));
    const promoted = await promotionItems(storage, owner, ['doc.pdf']);
    const key = promoted[0]?.key ?? '';
    await expectOk(storage.copyToPermanent(promoted));
    const expiredDownload = await expectOk(storage.presignDownload(key, 'doc.pdf', past));
    if (name === 's3rver') expect((await fetch(expiredDownload)).status).toBe(403);
    const expiresAt = inFifteenMinutes();
    const live = await expectOk(storage.presignDownload(key, 'doc.pdf', expiresAt));
    expect((await fetch(live)).status).toBe(200);
    expect(expiryOf(live)).toBeLessThanOrEqual(expiresAt.getTime());
    expect(expiryOf(live)).toBeGreaterThan(expiresAt.getTime() - 1000);
    // Whole seconds from the signing to the kit's end: 900 when signed within a second of
    // `expiresAt` being computed, a second or two less on a slow machine, never more.
    const lifetime = Number(new URL(live).searchParams.get('X-Amz-Expires'));
    expect(lifetime).toBeLessThanOrEqual(900);
    expect(lifetime).toBeGreaterThanOrEqual(895);
  });

  it('answers StorageUnavailable, not "missing", when the bucket does not exist', async () => {
    const missing = createS3DocumentStorage({ client, bucket: `kit-missing-${randomUUID().slice(0, 8)}` });
    const expected: Partial<StorageUnavailable> = { type: 'StorageUnavailable', store: 's3' };
    expect((await missing.listTemporary(newOwner()))._unsafeUnwrapErr()).toMatchObject(expected);
    expect((await missing.statTemporary(newOwner(), 'a.pdf'))._unsafeUnwrapErr()).toMatchObject(expected);
  });
});

/** When a presigned POST stops working: its policy's `expiration`. */
const policyExpirationOf = (upload: PresignedUpload): number =>
  Date.parse(
    (
      JSON.parse(
        Buffer.from((upload.method === 'POST' ? upload.fields.Policy : undefined) ?? '', 'base64').toString(
          'utf8',
        ),
      ) as {
        expiration: string;
      }
    ).expiration,
  );

/** When a SigV4 presigned URL stops working: X-Amz-Date + X-Amz-Expires. */
const expiryOf = (url: string): number => {
  const params = new URL(url).searchParams;
  const date = params.get('X-Amz-Date') ?? '';
  const signedAt = Date.parse(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  return signedAt + Number(params.get('X-Amz-Expires')) * 1000;
};
