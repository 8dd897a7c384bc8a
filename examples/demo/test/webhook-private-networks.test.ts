import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { expect, onTestFinished, test } from 'vitest';
import { type DemoCall, demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { startTestDemo } from './support/test-demo.js';

const managerA = demoIdentities.managerA.apiKey;
const managerB = demoIdentities.managerB.apiKey;

const listening = async (server: Server | ReturnType<typeof createNetServer>): Promise<number> => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => void server.close());
  return (server.address() as AddressInfo).port;
};

/** A receiver on loopback that records the webhook ids it is sent. */
const startReceiver = async () => {
  const received: string[] = [];
  const server = createHttpServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  onTestFinished(() => server.closeAllConnections());
  return { received, url: `http://127.0.0.1:${await listening(server)}/hooks` };
};

const createClient = async (call: DemoCall, key: string) => {
  await uploadThroughLinks(call, key, { 'passport.pdf': sampleBytes(1_000, 7) });
  const created = await call('POST', '/manager/v1/clients/individuals', {
    key,
    body: exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
  });
  expect(created.status).toBe(201);
};

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

test('by default only WEBHOOK_URL may be on a private network: no other endpoint probes the demo’s network', async () => {
  const receiver = await startReceiver();
  const demo = await startTestDemo({ WEBHOOK_URL: receiver.url });
  onTestFinished(() => demo.close());
  const call = demoCaller(demo.origin);
  for (const url of [
    `${receiver.url}/other`,
    `http://127.0.0.1:${new URL(receiver.url).port}/`,
    'http://127.0.0.1:5432/',
    'http://169.254.169.254/latest/meta-data/',
    'https://localhost./',
    'https://metadata.internal/',
  ]) {
    const refused = await call('POST', '/manager/v1/webhook-endpoints', { key: managerB, body: { url } });
    expect(refused.status, url).toBe(400);
    expect(refused.body.parameterErrors, url).toHaveProperty('url');
  }
  // WEBHOOK_URL itself is delivered to, on loopback.
  await createClient(call, managerA);
  expect(
    (
      await waitFor(
        async () => receiver.received,
        (ids) => ids.length >= 2,
      )
    ).length,
  ).toBe(2);
});

test('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true opens every endpoint, and delivery errors stay coarse', async () => {
  // A port that was free a moment ago: nothing listens there.
  const spare = createNetServer();
  const closedPort = await listening(spare);
  await new Promise((resolve) => spare.close(resolve));
  const demo = await startTestDemo({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  onTestFinished(() => demo.close());
  const call = demoCaller(demo.origin);
  // Something listening that is not an HTTP receiver (a banner, then close), and a closed port.
  const bannerPort = await listening(createNetServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
  const closedUrl = `http://127.0.0.1:${closedPort}/`;
  const endpoints: Record<string, string> = {};
  for (const url of [closedUrl, `http://127.0.0.1:${bannerPort}/`]) {
    const created = await call('POST', '/manager/v1/webhook-endpoints', { key: managerB, body: { url } });
    expect(created.status, url).toBe(201);
    endpoints[url] = created.body.id;
  }
  await createClient(call, managerB);
  const errors = await Promise.all(
    Object.values(endpoints).map(async (id) => {
      const deliveries = await waitFor(
        async () =>
          (await call('GET', `/manager/v1/webhook-endpoints/${id}/deliveries`, { key: managerB })).body,
        // Both events of the create (each endpoint gets two deliveries, made by the jobs as they run).
        (page) => page.data.length >= 2 && page.data.every((d: { attempts: number }) => d.attempts > 0),
      );
      return deliveries.data.map((d: { lastError: string | null; lastStatusCode: number | null }) => [
        d.lastError,
        d.lastStatusCode,
      ]);
    }),
  );
  // An open port and a closed one read the same; no socket error text, no address.
  expect(errors.flat()).toEqual(Array(4).fill(['connection failed', null]));
});
