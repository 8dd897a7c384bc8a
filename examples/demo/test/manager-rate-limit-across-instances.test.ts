import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOnboardingKit, demoIdentities, seedDemoData } from '@onboarding-kit/core';
import { type ManagerRequestLimiter, mountOnboardingKit } from '@onboarding-kit/express';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DemoDatabase, openDemoDatabase } from './support/demo-database.js';

/**
 * The per-manager request rate holds across instances: two apps (each its own kit, pool and
 * limiter, as two processes have) share one budget per manager through rate-limiter-flexible's
 * PostgreSQL store. A limit kept in each process would allow it once per process.
 */
const REQUESTS_PER_MINUTE = 10;
let database: DemoDatabase;
const servers: Server[] = [];
beforeAll(async () => {
  database = await openDemoDatabase();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await database.drop();
});

const limiterOnDatabase = async (): Promise<ManagerRequestLimiter> => {
  const pool = database.pool(2);
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      {
        storeClient: pool,
        tableName: 'manager_request_rate',
        points: REQUESTS_PER_MINUTE,
        duration: 60,
        // No timer of its own in the test; a host keeps the default (expired rows cleared hourly).
        clearExpiredByTimeout: false,
      },
      (error?: unknown) => (error === undefined || error === null ? resolve(limiter) : reject(error)),
    );
  });
};

const startInstance = async (): Promise<string> => {
  const adapters = createMemoryAdapters();
  const kit = createOnboardingKit(adapters);
  (await seedDemoData(adapters))._unsafeUnwrap();
  const app = express();
  mountOnboardingKit(app, kit, { managerRateLimit: await limiterOnDatabase(), openApi: false });
  const server = createServer(app);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

test('a manager has one request budget across two app instances on one PostgreSQL; another manager has its own', async () => {
  const origins = [await startInstance(), await startInstance()];
  const get = (origin: string, key: string) =>
    fetch(`${origin}/manager/v1/preset-fees`, { headers: { SERVICE_API_KEY: key } });
  const answers = [];
  for (let i = 0; i < 16; i += 1) {
    answers.push(await get(origins[i % 2] ?? '', demoIdentities.managerA.apiKey));
  }
  const statuses = answers.map((answer) => answer.status);
  expect(statuses).toEqual([...Array(REQUESTS_PER_MINUTE).fill(200), ...Array(6).fill(429)]);
  const refused = answers.at(-1);
  const retryAfter = Number(refused?.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await refused?.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  // Manager B's budget is its own, on either instance.
  expect((await get(origins[1] ?? '', demoIdentities.managerB.apiKey)).status).toBe(200);
  // Without a key: 401, never counted against anyone.
  expect((await fetch(`${origins[0]}/manager/v1/preset-fees`)).status).toBe(401);
});

test('a limiter whose store fails answers 503, and lets nothing through uncounted', async () => {
  const adapters = createMemoryAdapters();
  const kit = createOnboardingKit(adapters);
  (await seedDemoData(adapters))._unsafeUnwrap();
  const app = express();
  const down: ManagerRequestLimiter = { consume: () => Promise.reject(new Error('connection refused')) };
  const quiet = { error: () => undefined };
  mountOnboardingKit(app, kit, { managerRateLimit: down, openApi: false, logger: quiet });
  const server = createServer(app);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const answer = await fetch(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}/manager/v1/preset-fees`,
    {
      headers: { SERVICE_API_KEY: demoIdentities.managerA.apiKey },
    },
  );
  expect(answer.status).toBe(503);
  expect(await answer.json()).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
});
