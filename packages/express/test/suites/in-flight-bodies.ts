import { connect, type Socket } from 'node:net';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import { describe, expect, test } from 'vitest';
import { createInFlightByteBudget, defaultInFlightByteLimits } from '../../src/index.js';
import { type Harness, startHarness } from '../support/http-harness.js';

type Answer = { readonly status: number; readonly head: string; readonly text: string };

/**
 * A raw connection that sends `head` and `body` and then holds, as an attacker would: `answer`
 * resolves with the first response (if any), `closed` when the server closes the connection.
 */
const holdOpen = (origin: string, head: string, body: Buffer = Buffer.alloc(0)) => {
  const { hostname, port } = new URL(origin);
  const socket: Socket = connect(Number(port), hostname, () => {
    socket.write(head);
    if (body.byteLength > 0) socket.write(body);
  });
  let received = '';
  let resolveAnswer: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((resolve) => {
    resolveAnswer = resolve;
  });
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    const parsed = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(received);
    const length = /content-length: (\d+)/i.exec(parsed?.[2] ?? '');
    if (parsed && length && Buffer.byteLength(parsed[3] ?? '', 'latin1') >= Number(length[1])) {
      resolveAnswer({ status: Number(parsed[1]), head: parsed[2] ?? '', text: parsed[3] ?? '' });
    }
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, answer, closed };
};

const uploadPath = async (h: Harness, filename: string, apiKey = h.keys.managerA): Promise<string> => {
  const response = await h.api
    .post('/manager/v1/uploads/request-batch-upload')
    .set('SERVICE_API_KEY', apiKey)
    .send({ filenames: [filename] });
  expect(response.status).toBe(200);
  return new URL(response.body.uploads[0].uploadUrl as string).pathname;
};

const putHead = (path: string, length: number) =>
  `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;

/** Waits until `check` holds (the server releases on its own events), failing after `ms`. */
const eventually = async (check: () => boolean, ms = 3_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const MAX_UPLOAD = 64 * 1024;

/** Bodies being received are bounded per link, per owner and in all, and freed on every path. */
export const describeInFlightBodies = () =>
  describe('bodies in flight', () => {
    test('30 partial uploads to one link: one is read, 29 are refused 429 before their bodies; the count returns to zero', async () => {
      const budget = createInFlightByteBudget(defaultInFlightByteLimits(MAX_UPLOAD));
      const h = await startHarness({
        maxUploadBytes: MAX_UPLOAD,
        inFlightBudget: budget,
        uploadTimeoutMs: 60_000,
      });
      try {
        const path = await uploadPath(h, 'target.pdf');
        // Each sends all but the last byte of what it announces, then holds.
        const first = holdOpen(h.origin, putHead(path, MAX_UPLOAD), Buffer.alloc(MAX_UPLOAD - 1, 1));
        await eventually(() => budget.inFlight().bytes === MAX_UPLOAD);
        // The others send their headers only: an answer proves nothing of a body was awaited.
        const others = Array.from({ length: 29 }, () => holdOpen(h.origin, putHead(path, MAX_UPLOAD)));
        const answers = await Promise.all(others.map((other) => other.answer));
        for (const answer of answers) {
          expect(answer.status).toBe(429);
          expect(answer.head).toMatch(/retry-after: 5/i);
          expect(JSON.parse(answer.text).code).toBe('TOO_MANY_REQUESTS');
        }
        await Promise.all(others.map((other) => other.closed));
        expect(budget.inFlight()).toEqual({ bytes: MAX_UPLOAD, links: 1, owners: 1 });
        // The one being read is abandoned by its sender: its bytes are released.
        first.socket.destroy();
        await eventually(() => budget.inFlight().bytes === 0);
        expect(budget.inFlight()).toEqual({ bytes: 0, links: 0, owners: 0 });
        // The link works again for a whole upload, which releases its bytes once stored.
        const stored = await fetch(`${h.origin}${path}`, { method: 'PUT', body: new Uint8Array(1_000) });
        expect(stored.status).toBe(200);
        expect(budget.inFlight().bytes).toBe(0);
      } finally {
        await h.close();
      }
    });

    test('per owner 429 and per process 503 (with Retry-After), refused before reading; 413 for a body over a bound alone', async () => {
      const budget = createInFlightByteBudget({
        perLinkBytes: MAX_UPLOAD,
        perOwnerBytes: 2 * MAX_UPLOAD,
        perProcessBytes: 3 * MAX_UPLOAD,
      });
      const h = await startHarness({
        maxUploadBytes: MAX_UPLOAD,
        inFlightBudget: budget,
        uploadTimeoutMs: 60_000,
      });
      const held: ReturnType<typeof holdOpen>[] = [];
      try {
        const hold = async (path: string) => {
          const connection = holdOpen(h.origin, putHead(path, MAX_UPLOAD), Buffer.alloc(10));
          held.push(connection);
          const before = budget.inFlight().bytes;
          await eventually(() => budget.inFlight().bytes === before + MAX_UPLOAD);
        };
        await hold(await uploadPath(h, 'a1.pdf'));
        await hold(await uploadPath(h, 'a2.pdf'));
        const ownerFull = await holdOpen(h.origin, putHead(await uploadPath(h, 'a3.pdf'), MAX_UPLOAD)).answer;
        expect(ownerFull.status).toBe(429);
        expect(ownerFull.head).toMatch(/retry-after: 5/i);

        await hold(await uploadPath(h, 'b1.pdf', h.keys.managerB));
        const processFull = await holdOpen(
          h.origin,
          putHead(await uploadPath(h, 'b2.pdf', h.keys.managerB), MAX_UPLOAD),
        ).answer;
        expect(processFull.status).toBe(503);
        expect(processFull.head).toMatch(/retry-after: 5/i);
        expect(JSON.parse(processFull.text).code).toBe('SERVER_BUSY');
        // A small body still fits beside them... until the process bound is reached.
        const small = await fetch(`${h.origin}${await uploadPath(h, 'b3.pdf', h.keys.managerB)}`, {
          method: 'PUT',
          body: new Uint8Array(100),
        });
        expect(small.status).toBe(503);
        expect(budget.inFlight()).toEqual({ bytes: 3 * MAX_UPLOAD, links: 3, owners: 2 });
      } finally {
        for (const connection of held) connection.socket.destroy();
        await eventually(() => budget.inFlight().bytes === 0);
        await h.close();
      }
      // A bound smaller than the file limit: a body over it alone can never fit, so 413.
      const tight = createInFlightByteBudget({
        perLinkBytes: 1_000,
        perOwnerBytes: 1_000,
        perProcessBytes: 1_000,
      });
      const small = await startHarness({ maxUploadBytes: MAX_UPLOAD, inFlightBudget: tight });
      try {
        const answer = await holdOpen(small.origin, putHead(await uploadPath(small, 'big.pdf'), 1_001))
          .answer;
        expect(answer.status).toBe(413);
      } finally {
        await small.close();
      }
    });

    test('released on every path: stored, over the limit (chunked), timed out, aborted', async () => {
      const budget = createInFlightByteBudget(defaultInFlightByteLimits(MAX_UPLOAD));
      const h = await startHarness({
        maxUploadBytes: MAX_UPLOAD,
        inFlightBudget: budget,
        uploadTimeoutMs: 300,
      });
      try {
        const stored = await fetch(`${h.origin}${await uploadPath(h, 'ok.pdf')}`, {
          method: 'PUT',
          body: new Uint8Array(500),
        });
        expect(stored.status).toBe(200);
        expect(budget.inFlight().bytes).toBe(0);

        const chunk = Buffer.alloc(MAX_UPLOAD / 2 + 1, 1);
        const size = chunk.length.toString(16);
        const overLimit = await holdOpen(
          h.origin,
          `PUT ${await uploadPath(h, 'chunked.pdf')} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`,
          Buffer.concat([
            Buffer.from(`${size}\r\n`),
            chunk,
            Buffer.from(`\r\n${size}\r\n`),
            chunk,
            Buffer.from('\r\n'),
          ]),
        ).answer;
        expect(overLimit.status).toBe(413);
        await eventually(() => budget.inFlight().bytes === 0);

        const slow = holdOpen(h.origin, putHead(await uploadPath(h, 'slow.pdf'), 1_000), Buffer.alloc(10));
        expect((await slow.answer).status).toBe(408);
        await slow.closed;
        await eventually(() => budget.inFlight().bytes === 0);

        const aborted = holdOpen(h.origin, putHead(await uploadPath(h, 'gone.pdf'), 1_000), Buffer.alloc(10));
        await eventually(() => budget.inFlight().bytes === 1_000);
        aborted.socket.destroy();
        await eventually(() => budget.inFlight().bytes === 0);
        expect(budget.inFlight()).toEqual({ bytes: 0, links: 0, owners: 0 });
      } finally {
        await h.close();
      }
    });

    test('a stalled JSON body is answered 408 at its deadline and its connection closed', async () => {
      const h = await startHarness({ jsonBodyTimeoutMs: 300 });
      try {
        const body = JSON.stringify(exampleIndividualPayload());
        const started = Date.now();
        const stalled = holdOpen(
          h.origin,
          [
            'POST /manager/v1/clients/individuals HTTP/1.1',
            'Host: x',
            `SERVICE_API_KEY: ${h.keys.managerA}`,
            'Content-Type: application/json',
            `Content-Length: ${body.length + 1}`,
            '',
            '',
          ].join('\r\n'),
          Buffer.from(body),
        );
        const answer = await stalled.answer;
        expect(answer.status).toBe(408);
        expect(JSON.parse(answer.text).code).toBe('REQUEST_TIMEOUT');
        await stalled.closed;
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
        expect(Date.now() - started).toBeLessThan(3_000);
        // Nothing was created, and the router goes on answering.
        const listed = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
        expect(listed.status).toBe(200);
        expect(listed.body.data).toEqual([]);
        expect(h.logged).toEqual([]);
      } finally {
        await h.close();
      }
    });
  });
