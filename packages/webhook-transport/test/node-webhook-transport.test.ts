import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { WebhookRequest } from '@onboarding-kit/core/adapter';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createNodeWebhookTransport } from '../src/index.js';

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A receiver on 127.0.0.1 answering with `handle`, recording what reached it. */
const startReceiver = async (
  handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end(),
) => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      handle(req, res);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { received, port: (server.address() as AddressInfo).port };
};

const delivery = (url: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"hello":"wörld"}',
  timeoutMs: 2_000,
  allowPrivateNetworks: true,
  ...overrides,
});

describe('createNodeWebhookTransport', () => {
  it('POSTs the body and headers and answers the status and Retry-After', async () => {
    const { received, port } = await startReceiver((_req, res) => {
      res.writeHead(429, { 'retry-after': '30' }).end('slow down');
    });
    const answer = await createNodeWebhookTransport().send(delivery(`http://127.0.0.1:${port}/hooks?x=1`));
    expect(answer._unsafeUnwrap()).toEqual({ type: 'answered', statusCode: 429, retryAfter: '30' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks?x=1', body: '{"hello":"wörld"}' });
    expect(received[0]?.headers).toMatchObject({ 'webhook-id': 'msg_1', 'content-length': '18' });
  });

  it('without the opt-in, refuses loopback literals and names resolving to them, before connecting', async () => {
    const { received, port } = await startReceiver();
    const transport = createNodeWebhookTransport();
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://localhost:${port}/`,
    ]) {
      const answer = (await transport.send(delivery(url, { allowPrivateNetworks: false })))._unsafeUnwrap();
      expect(answer).toEqual({ type: 'unreachable', reason: 'address not allowed' });
    }
    // A public-looking name that resolves to an internal address (DNS rebinding) is refused too.
    const rebinding = createNodeWebhookTransport({
      lookup: ((
        _host: string,
        _options: unknown,
        callback: (e: null, a: { address: string; family: number }[]) => void,
      ) => callback(null, [{ address: '169.254.169.254', family: 4 }])) as never,
    });
    expect(
      (
        await rebinding.send(delivery(`http://hooks.example.com:${port}/`, { allowPrivateNetworks: false }))
      )._unsafeUnwrap(),
    ).toEqual({ type: 'unreachable', reason: 'address not allowed' });
    expect(received).toEqual([]);
  });

  it('does not follow redirects: a 3xx is an answer', async () => {
    const target = await startReceiver();
    const { port } = await startReceiver((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/` }).end();
    });
    const answer = await createNodeWebhookTransport().send(delivery(`http://127.0.0.1:${port}/`));
    expect(answer._unsafeUnwrap()).toMatchObject({ type: 'answered', statusCode: 307 });
    expect(target.received).toEqual([]);
  });

  it('gives up at the timeout on a receiver that never answers, and reports a refused connection', async () => {
    const { port } = await startReceiver(() => undefined);
    const started = Date.now();
    const answer = await createNodeWebhookTransport().send(
      delivery(`http://127.0.0.1:${port}/`, { timeoutMs: 300 }),
    );
    expect(answer._unsafeUnwrap()).toEqual({ type: 'unreachable', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);

    const closed = await startReceiver();
    // Closed: it accepts no connection once its close has called back (it had none to end).
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const refused = await createNodeWebhookTransport().send(delivery(`http://127.0.0.1:${closed.port}/`));
    expect(refused._unsafeUnwrap()).toEqual({ type: 'unreachable', reason: 'connection failed' });
  });

  it('reports every failed exchange as a coarse reason: no socket error text, no address', async () => {
    // A closed port, a port that resets at once, a service that speaks something else, TLS to a
    // plain port: a manager probing through its endpoints learns "connection failed" from each.
    const closed = await startReceiver();
    servers.pop()?.close();
    const resetting = createNetServer((socket) => socket.destroy());
    const chatty = createNetServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const plain = await startReceiver();
    for (const server of [resetting, chatty]) {
      onTestFinished(() => void server.close());
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    }
    const portOf = (server: NetServer) => (server.address() as AddressInfo).port;
    const answers = await Promise.all(
      [
        `http://127.0.0.1:${closed.port}/`,
        `http://127.0.0.1:${portOf(resetting)}/`,
        `http://127.0.0.1:${portOf(chatty)}/`,
        `https://127.0.0.1:${plain.port}/`,
        'http://[::1]:1/',
      ].map(async (url) => (await createNodeWebhookTransport().send(delivery(url)))._unsafeUnwrap()),
    );
    expect(answers).toEqual(Array(5).fill({ type: 'unreachable', reason: 'connection failed' }));
  });

  it('stops reading a huge answer body', async () => {
    const { port } = await startReceiver((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const write = () => {
        while (res.write(chunk)) if (res.writableLength > 1 << 24) break;
      };
      res.on('drain', write);
      write();
    });
    const answer = await createNodeWebhookTransport({ maxResponseBytes: 1024 }).send(
      delivery(`http://127.0.0.1:${port}/`),
    );
    expect(answer._unsafeUnwrap()).toMatchObject({ type: 'answered', statusCode: 200 });
  });

  it('closes the connection at the deadline when the answer body trickles on after its status', async () => {
    let serverSawClose = false;
    let closedAt = 0;
    const { port } = await startReceiver((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const trickle = setInterval(() => res.write('.'), 50);
      req.socket.on('close', () => {
        clearInterval(trickle);
        serverSawClose = true;
        closedAt = Date.now();
      });
    });
    const started = Date.now();
    const answer = await createNodeWebhookTransport().send(
      delivery(`http://127.0.0.1:${port}/`, { timeoutMs: 400 }),
    );
    // The answer is its status, known at once.
    expect(answer._unsafeUnwrap()).toEqual({ type: 'answered', statusCode: 200, retryAfter: null });
    expect(Date.now() - started).toBeLessThan(300);
    await expect.poll(() => serverSawClose, { timeout: 2_000 }).toBe(true);
    // Closed by the deadline (400 ms from the start), not left open.
    expect(closedAt - started).toBeGreaterThanOrEqual(350);
    expect(closedAt - started).toBeLessThan(1_500);
  });
});
