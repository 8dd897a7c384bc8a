import { connect, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { exampleEntityPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness } from '../support/http-harness.js';

/** One raw HTTP/1.1 exchange: the head is sent, the body only if given; resolves with the first answer. */
const rawExchange = (
  origin: string,
  head: string,
  body: Buffer | null,
  { waitMs = 5_000 }: { waitMs?: number } = {},
): Promise<{ status: number; text: string; elapsedMs: number }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const started = Date.now();
    const socket: Socket = connect(Number(port), hostname, () => {
      socket.write(head);
      if (body !== null) socket.write(body);
    });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${waitMs} ms`));
    }, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(received);
      const length = /content-length: (\d+)/i.exec(match?.[2] ?? '');
      if (match && length && Buffer.byteLength(match[3] ?? '', 'latin1') >= Number(length[1])) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(match[1]), text: match[3] ?? '', elapsedMs: Date.now() - started });
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });

const uploadPath = async (h: Harness, filename: string): Promise<string> => {
  const response = await h.api
    .post('/manager/v1/uploads/request-batch-upload')
    .set('SERVICE_API_KEY', h.keys.managerA)
    .send({ filenames: [filename] });
  expect(response.status).toBe(200);
  return new URL(response.body.uploads[0].uploadUrl as string).pathname;
};

const TWENTY_SIX_MB_AND_A_KIB = 26 * 1024 * 1024 + 1024;

/** The attack classes an outsider with or without a key or a link can try, closed. */
export const describeHostileRequests = () =>
  describe('hostile requests', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ uploadTimeoutMs: 400 });
    });
    afterAll(() => h.close());

    test('an upload with a bad token announcing 26 MB + 1 KiB is refused (403) before any byte of its body', async () => {
      const answer = await rawExchange(
        h.origin,
        `PUT /storage/uploads/not-a-token HTTP/1.1\r\nHost: x\r\nContent-Length: ${TWENTY_SIX_MB_AND_A_KIB}\r\n\r\n`,
        null,
      );
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toEqual(errorBody('FORBIDDEN', 'This link is not valid'));
    });

    test('a valid link announcing 26 MB + 1 KiB is refused (413) before any byte of its body', async () => {
      const path = await uploadPath(h, 'huge.pdf');
      const answer = await rawExchange(
        h.origin,
        `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${TWENTY_SIX_MB_AND_A_KIB}\r\n\r\n`,
        null,
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual(errorBody('PAYLOAD_TOO_LARGE'));
    });

    test('a chunked upload that grows past the limit is cut off with 413 and nothing is stored', async () => {
      const small = await startHarness({ maxUploadBytes: 1024 });
      try {
        const path = await uploadPath(small, 'chunked.bin');
        const chunk = Buffer.alloc(700, 1);
        const chunked = Buffer.concat([
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from(`\r\n${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from('\r\n0\r\n\r\n'),
        ]);
        const answer = await rawExchange(
          small.origin,
          `PUT ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`,
          chunked,
        );
        expect(answer.status).toBe(413);
        const listed = await small.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', small.keys.managerA);
        expect(listed.body.files).toEqual([]);
      } finally {
        await small.close();
      }
    });

    test('a sender slower than the upload deadline gets 408 and its connection closed', async () => {
      const path = await uploadPath(h, 'slow.pdf');
      const answer = await rawExchange(
        h.origin,
        `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly the first bytes`,
        null,
      );
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.text)).toEqual(errorBody('REQUEST_TIMEOUT'));
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(350);
    });

    test('altered links are refused: junk appended or prepended, encoded, or a character changed', async () => {
      const path = await uploadPath(h, 'target.pdf');
      const token = path.slice(path.lastIndexOf('/') + 1);
      const base = path.slice(0, path.lastIndexOf('/') + 1);
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      for (const altered of [
        `${token}!`,
        `${token}@@@`,
        `${token}%20`,
        `${token}=`,
        `${token}.`,
        `%20${token}`,
        `${token.slice(0, -1)}${last}`,
        token.slice(0, -2),
        `${token.slice(0, 10)}%0A${token.slice(10)}`,
      ]) {
        const response = await fetch(`${h.origin}${base}${altered}`, { method: 'PUT', body: 'forged' });
        expect(response.status, altered).toBe(403);
      }
      const listed = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', h.keys.managerA);
      expect(listed.body.files.map((file: { filename: string }) => file.filename)).not.toContain(
        'target.pdf',
      );
    });

    test('an upload link does not reveal whose it is', async () => {
      const path = await uploadPath(h, 'private.pdf');
      const token = path.slice(path.lastIndexOf('/') + 1);
      const decoded = Buffer.from(token, 'base64url').toString('latin1');
      expect(decoded).not.toContain(h.principals.managerA.managerId);
      expect(decoded).not.toContain('private.pdf');
      expect(decoded).not.toContain('manager');
    });

    test('compressed bodies: corrupt gzip is 400, an unknown encoding 415, an encoded upload 415, never logged', async () => {
      const corrupt = await h.api
        .post('/manager/v1/clients/entities')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('garbage, not gzip');
      expect(corrupt.status).toBe(400);
      expect(corrupt.body).toEqual(errorBody('MALFORMED_JSON'));

      const unknown = await h.api
        .post('/manager/v1/clients/entities')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'x-unknown')
        .send('{}');
      expect(unknown.status).toBe(415);
      expect(unknown.body).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE'));

      // fetch sends the bytes as they are (supertest would JSON-encode a Buffer).
      const gzipped = await fetch(`${h.origin}/manager/v1/clients/entities`, {
        method: 'POST',
        headers: {
          SERVICE_API_KEY: h.keys.managerA,
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
        },
        body: gzipSync(JSON.stringify(exampleEntityPayload())),
      });
      expect(gzipped.status).toBe(201);

      const path = await uploadPath(h, 'encoded.pdf');
      for (const body of [Buffer.from('garbage'), gzipSync('a real file')]) {
        const upload = await fetch(`${h.origin}${path}`, {
          method: 'PUT',
          headers: { 'Content-Encoding': 'gzip' },
          body,
        });
        expect(upload.status).toBe(415);
        expect(await upload.json()).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE'));
      }
      expect(h.logged).toEqual([]);
    });

    test('a JSON body is UTF-8, sent as identity, gzip or deflate: any other charset or br is 415 on Express 4 and 5 alike', async () => {
      const send = (headers: Record<string, string>, body: Buffer) =>
        fetch(`${h.origin}/manager/v1/uploads/request-batch-upload`, {
          method: 'POST',
          headers: { SERVICE_API_KEY: h.keys.managerA, ...headers },
          body,
        });
      const json = Buffer.from(JSON.stringify({ filenames: ['a.pdf'] }));
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'application/json;charset=UTF-8',
        'application/json; charset="utf-8"',
      ]) {
        expect((await send({ 'Content-Type': contentType }, json)).status, contentType).toBe(200);
      }
      for (const [contentType, body] of [
        [
          'application/json; charset=utf-16le',
          Buffer.from(JSON.stringify({ filenames: ['a.pdf'] }), 'utf16le'),
        ],
        ['application/json; charset=utf-7', json],
        ['application/json; charset=utf-32', json],
        ['application/json; charset=latin1', json],
        ['application/json; charset=utf-8; charset=utf-16', json],
      ] as const) {
        const refused = await send({ 'Content-Type': contentType }, body);
        expect(refused.status, contentType).toBe(415);
        expect(await refused.json()).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE', /UTF-8/));
      }
      for (const [encoding, body] of [
        ['gzip', gzipSync(json)],
        ['deflate', deflateSync(json)],
        ['identity', json],
      ] as const) {
        const answer = await send({ 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body);
        expect(answer.status, encoding).toBe(200);
      }
      const brotli = await send(
        { 'Content-Type': 'application/json', 'Content-Encoding': 'br' },
        brotliCompressSync(json),
      );
      expect(brotli.status).toBe(415);
      expect(await brotli.json()).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE', /identity, gzip or deflate/));
      expect(h.logged).toEqual([]);
    });

    test('a path whose percent-encoding is not UTF-8 is 400, never a logged 500', async () => {
      for (const segment of ['%', '%zz', '%C0%AF', '%ED%A0%80', '%80%00']) {
        const answer = await h.api
          .get(`/manager/v1/clients/${segment}`)
          .set('SERVICE_API_KEY', h.keys.managerA);
        expect(answer.status, segment).toBe(400);
        expect(answer.body).toEqual(errorBody('VALIDATION_FAILED', /percent-encoded/));
      }
      expect(h.logged).toEqual([]);
    });

    test('one Idempotency-Key makes one client whatever the spelling of the path', async () => {
      const key = `spelling-${Date.now()}`;
      const payload = exampleEntityPayload();
      const answers = [];
      for (const path of [
        '/manager/v1/clients/entities',
        '/MANAGER/V1/CLIENTS/ENTITIES',
        '/manager/v1/Clients/Entities',
        '/manager/v1/clients/entities/',
      ]) {
        answers.push(
          await h.api
            .post(path)
            .set('SERVICE_API_KEY', h.keys.managerA)
            .set('Idempotency-Key', key)
            .send(payload),
        );
      }
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(answers.slice(1).every((answer) => answer.headers['idempotent-replayed'] === 'true')).toBe(true);
    });
  });
