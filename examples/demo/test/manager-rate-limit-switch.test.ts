import { demoIdentities } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DemoDatabase, openDemoDatabase } from './support/demo-database.js';
import { type DemoAnswer, demoCaller } from './support/demo-http.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

type Responses = Record<string, { description?: string; headers?: Record<string, unknown> }>;

/** Each operation of the served document: its path and its documented answers. */
const documentedAnswers = async (origin: string) => {
  const served = await demoCaller(origin)('GET', '/openapi.json');
  expect(served.status).toBe(200);
  return Object.entries(
    served.body.paths as Record<string, Record<string, { responses: Responses }>>,
  ).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, { responses }]) => ({ at: `${method} ${path}`, path, responses })),
  );
};

const presetFees = (origin: string, key: string): Promise<DemoAnswer> =>
  demoCaller(origin)('GET', '/manager/v1/preset-fees', { key });

/** A refusal of the limit: 429 TOO_MANY_REQUESTS with a Retry-After within the minute. */
const expectRateLimited = (answer: DemoAnswer) => {
  expect([answer.status, answer.body.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
};

const { managerA, managerB, compliance } = demoIdentities;

describe('MANAGER_RATE_LIMIT: the demo limits each manager only when asked to', () => {
  let limited: TestDemo;
  let unlimited: TestDemo;
  beforeAll(async () => {
    limited = await startTestDemo({ MANAGER_RATE_LIMIT: '3' });
    unlimited = await startTestDemo();
  });
  afterAll(async () => {
    await limited.close();
    await unlimited.close();
  });

  test('off by default: no manager is refused, and the document promises no 429 on a GET', async () => {
    for (let i = 0; i < 8; i += 1)
      expect((await presetFees(unlimited.origin, managerA.apiKey)).status).toBe(200);
    const answers = await documentedAnswers(unlimited.origin);
    expect(answers.find(({ at }) => at === 'get /manager/v1/preset-fees')?.responses['429']).toBeUndefined();
  });

  test('on: 3 requests a minute per manager, then 429 with Retry-After; another manager and compliance go on', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await presetFees(limited.origin, managerA.apiKey)).status).toBe(200);
    expectRateLimited(await presetFees(limited.origin, managerA.apiKey));
    // Every manager route counts against the same budget.
    expectRateLimited(
      await demoCaller(limited.origin)('GET', '/manager/v1/clients', { key: managerA.apiKey }),
    );
    expect((await presetFees(limited.origin, managerB.apiKey)).status).toBe(200);
    const review = await demoCaller(limited.origin)('GET', '/compliance/v1/review-queue', {
      key: compliance.apiKey,
    });
    expect(review.status).toBe(200);
    // No key: 401, counted against nobody.
    expect((await demoCaller(limited.origin)('GET', '/manager/v1/preset-fees')).status).toBe(401);
    expect(limited.logged).toEqual([]);
  });

  test('on: every manager operation of the served document lists 429 with Retry-After', async () => {
    const answers = await documentedAnswers(limited.origin);
    const manager = answers.filter(({ path }) => path.startsWith('/manager/'));
    expect(manager.length).toBeGreaterThan(20);
    for (const { at, responses } of manager) {
      expect(responses['429']?.description, at).toContain('TOO_MANY_REQUESTS');
      expect(responses['429']?.headers, at).toHaveProperty('Retry-After');
    }
  });
});

describe('MANAGER_RATE_LIMIT with DATABASE_URL: one budget per manager across demo processes', () => {
  let database: DemoDatabase;
  const demos: TestDemo[] = [];
  beforeAll(async () => {
    database = await openDemoDatabase();
  });
  afterAll(async () => {
    for (const demo of demos) await demo.close();
    await database.drop();
  });

  test('two demos on one database: 4 requests of manager A in all, alternating between them, then 429 on both', async () => {
    const environment = { DATABASE_URL: database.url, MANAGER_RATE_LIMIT: '4' };
    // One after the other: each migrates and creates the limiter's table if missing.
    demos.push(await startTestDemo(environment));
    demos.push(await startTestDemo(environment));
    const origins = demos.map((demo) => demo.origin);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await presetFees(origins[i % 2] ?? '', managerA.apiKey)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expectRateLimited(await presetFees(origins[0] ?? '', managerA.apiKey));
    expect((await presetFees(origins[1] ?? '', managerB.apiKey)).status).toBe(200);
  });
});
