import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { defaultDemoServerLimits } from '../src/demo-server-limits.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

/** A raw connection: resolves once open; `closed` resolves with how long after opening it was closed. */
const openConnection = (origin: string): Promise<{ socket: Socket; closed: Promise<number> }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const socket = connect(Number(port), hostname);
    let opened = 0;
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - opened)));
    socket.on('error', () => undefined);
    // Read what the server sends (its 408), so that its close is seen.
    socket.resume();
    socket.once('connect', () => {
      opened = Date.now();
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });

const openApiStatus = async (origin: string): Promise<number | string> => {
  try {
    const response = await fetch(`${origin}/openapi.json`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return error instanceof Error ? error.name : String(error);
  }
};

describe('the demo server bounds idle and surplus connections', () => {
  let demo: TestDemo | undefined;
  afterEach(async () => {
    await demo?.close();
    demo = undefined;
  });

  test('the defaults leave room for the largest upload: request deadline over the upload link deadline', () => {
    expect(defaultDemoServerLimits.requestTimeoutMs).toBeGreaterThan(120_000);
    expect(defaultDemoServerLimits.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(defaultDemoServerLimits.maxConnections).toBeLessThan(1_024);
  });

  test('a connection that sends nothing is closed after the header timeout', async () => {
    demo = await startTestDemo({}, { serverLimits: { headersTimeoutMs: 500 } });
    const idle = await openConnection(demo.origin);
    // And one that starts a request head and never ends it.
    const partial = await openConnection(demo.origin);
    partial.socket.write('GET /openapi.json HTTP/1.1\r\nHost: x\r\n');
    for (const closedAfterMs of await Promise.all([idle.closed, partial.closed])) {
      expect(closedAfterMs).toBeGreaterThanOrEqual(400);
      expect(closedAfterMs).toBeLessThan(3_000);
    }
  });

  test('connections beyond the cap are refused; a normal request works again once they close', async () => {
    demo = await startTestDemo({}, { serverLimits: { maxConnections: 5 } });
    const held = await Promise.all(Array.from({ length: 5 }, () => openConnection(demo?.origin ?? '')));
    const surplus = await Promise.all(Array.from({ length: 3 }, () => openConnection(demo?.origin ?? '')));
    // The server drops each one over the cap as it arrives.
    for (const connection of surplus) expect(await connection.closed).toBeLessThan(1_000);
    expect(await openApiStatus(demo.origin)).not.toBe(200);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
    // The server counts the closes on its side: wait until it has seen them.
    const until = Date.now() + 3_000;
    let status = await openApiStatus(demo.origin);
    while (status !== 200 && Date.now() < until) status = await openApiStatus(demo.origin);
    expect(status).toBe(200);
  });
});
