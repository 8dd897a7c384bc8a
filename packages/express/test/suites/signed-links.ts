import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness } from '../support/http-harness.js';

const uploadLink = async (h: Harness, filename: string) => {
  const response = await h.api
    .post('/manager/v1/uploads/request-batch-upload')
    .set('SERVICE_API_KEY', h.keys.managerA)
    .send({ filenames: [filename] });
  return response.body.uploads[0] as { uploadUrl: string; headers: Record<string, string> };
};

/** The memory storage's presigned links, served by `createSignedLinkRouter`, with real bytes. */
export const describeSignedLinks = () =>
  describe('signed upload and download links', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    test('bytes PUT to an upload link come back, unchanged, from the download link as an attachment', async () => {
      const filename = 'relevé d’identité (1).pdf';
      const bytes = new Uint8Array(70_000).map((_, index) => (index * 31) % 256);
      const link = await uploadLink(h, filename);
      const put = await fetch(link.uploadUrl, {
        method: 'PUT',
        headers: link.headers,
        body: Buffer.from(bytes),
      });
      expect(put.status).toBe(200);
      const listed = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', h.keys.managerA);
      expect(listed.body.files).toContainEqual(expect.objectContaining({ filename, size: bytes.byteLength }));

      const created = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send(exampleIndividualPayload({ idDocuments: [filename] }));
      expect(created.status).toBe(201);
      const key = created.body.individualProfile.idDocuments[0] as string;
      const downloads = await h.api
        .post('/manager/v1/documents/request-batch-download')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ filenames: [key] });
      const download = await fetch(downloads.body.downloads[0].downloadUrl);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/octet-stream');
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="releve d_identite (1).pdf"; filename*=UTF-8''relev%C3%A9%20d%E2%80%99identit%C3%A9%20%281%29.pdf`,
      );
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    });

    test('an empty PUT stores an empty file', async () => {
      const link = await uploadLink(h, 'empty.txt');
      const put = await fetch(link.uploadUrl, { method: 'PUT' });
      expect(put.status).toBe(200);
      const listed = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', h.keys.managerA);
      expect(listed.body.files).toContainEqual(expect.objectContaining({ filename: 'empty.txt', size: 0 }));
    });

    test('a tampered or misused token → 403 FORBIDDEN', async () => {
      const link = await uploadLink(h, 'tampered.pdf');
      const tampered = `${link.uploadUrl.slice(0, -3)}${link.uploadUrl.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      const put = await h.api.put(new URL(tampered).pathname).send(Buffer.from('x'));
      expect(put.status).toBe(403);
      expect(put.body).toEqual(errorBody('FORBIDDEN'));
      // An upload token is no download token.
      const asDownload = await h.api.get(
        new URL(link.uploadUrl).pathname.replace('/uploads/', '/downloads/'),
      );
      expect(asDownload.status).toBe(403);
      expect(asDownload.body).toEqual(errorBody('FORBIDDEN'));
    });

    test('an expired link → 403 FORBIDDEN naming the expiry', async () => {
      const link = await uploadLink(h, 'late.pdf');
      h.clock.advance(16 * 60_000);
      const put = await fetch(link.uploadUrl, { method: 'PUT', body: 'late' });
      expect(put.status).toBe(403);
      expect(await put.json()).toEqual(errorBody('FORBIDDEN', /expired/));
    });
  });

/** A small upload limit, so "too large" is cheap to prove. */
export const describeSignedLinkLimit = () =>
  describe('signed upload limit', () => {
    test('a body over the endpoint’s limit → 413 PAYLOAD_TOO_LARGE, nothing stored', async () => {
      const h = await startHarness({ maxUploadBytes: 1024 });
      try {
        const link = await uploadLink(h, 'big.bin');
        const tooLarge = await fetch(link.uploadUrl, { method: 'PUT', body: Buffer.alloc(1025, 1) });
        expect(tooLarge.status).toBe(413);
        expect(await tooLarge.json()).toEqual(errorBody('PAYLOAD_TOO_LARGE'));
        const fits = await fetch(link.uploadUrl, { method: 'PUT', body: Buffer.alloc(1024, 1) });
        expect(fits.status).toBe(200);
        const listed = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', h.keys.managerA);
        expect(listed.body.files).toEqual([expect.objectContaining({ filename: 'big.bin', size: 1024 })]);
      } finally {
        await h.close();
      }
    });

    test('a caller whose temporary storage is full → 429 TOO_MANY_REQUESTS with Retry-After, key released', async () => {
      const h = await startHarness({ maxTemporaryFilesPerOwner: 2 });
      try {
        for (const filename of ['a.pdf', 'b.pdf']) {
          const link = await uploadLink(h, filename);
          expect((await fetch(link.uploadUrl, { method: 'PUT', body: 'x' })).status).toBe(200);
        }
        const ask = (key: string) =>
          h.api
            .post('/manager/v1/uploads/request-batch-upload')
            .set('SERVICE_API_KEY', key)
            .set('Idempotency-Key', 'one-more')
            .send({ filenames: ['c.pdf'] });
        const full = await ask(h.keys.managerA);
        expect(full.status).toBe(429);
        expect(full.body).toEqual(errorBody('TOO_MANY_REQUESTS'));
        expect(full.body.reason).toMatch(/temporary storage/);
        expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        // Another manager is not held back by this one.
        expect((await ask(h.keys.managerB)).status).toBe(200);
        // Using a file frees its place; the refusal was not recorded, so the same key runs anew.
        const created = await h.api
          .post('/manager/v1/clients/individuals')
          .set('SERVICE_API_KEY', h.keys.managerA)
          .send(exampleIndividualPayload({ idDocuments: ['a.pdf'] }));
        expect(created.status).toBe(201);
        const again = await ask(h.keys.managerA);
        expect(again.status).toBe(200);
        expect(again.headers['idempotent-replayed']).toBeUndefined();
      } finally {
        await h.close();
      }
    });
  });
