import { STATUS_CODES } from 'node:http';
import { createOnboardingKit, demoIdentities, seedDemoData } from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import {
  createAuthenticationMiddleware,
  createIdempotencyMiddleware,
  createOpenApiDocument,
  mountOnboardingKit,
  PROBLEM_JSON_CONTENT_TYPE,
  problemDetailsErrors,
  problemDetailsSchema,
} from '../src/index.js';

const managerKey = demoIdentities.managerA.apiKey;

/** A host route behind the kit's authentication and idempotency, and the kit mounted, answering RFC 9457 problems. */
const hostApp = async (options: Parameters<typeof problemDetailsErrors>[0] = {}) => {
  const adapters = createMemoryAdapters();
  (await seedDemoData(adapters))._unsafeUnwrap();
  const kit = createOnboardingKit(adapters);
  const problems = { ...problemDetailsErrors(options), logger: { error: () => {}, warn: () => {} } };
  let started = () => {};
  const slowStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  let releaseSlow = () => {};
  const released = new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  const app = express();
  app.post(
    '/transactions',
    createAuthenticationMiddleware(kit, { accept: 'manager', ...problems }),
    express.json(),
    createIdempotencyMiddleware(kit.idempotency, problems),
    async (req, res) => {
      if (req.body?.slow === true) {
        started();
        await released;
      }
      res.status(201).json({ amount: req.body?.amount });
    },
  );
  mountOnboardingKit(app, kit, {
    prefix: '/onboarding',
    interfaces: ['manager'],
    ...problems,
    openApi: { errorSchema: problemDetailsSchema },
  });
  return { app, slowStarted, releaseSlow: () => releaseSlow() };
};

const expectProblem = (
  response: request.Response,
  expected: { status: number; code: string; type?: string; title?: string | undefined },
) => {
  expect(response.status).toBe(expected.status);
  expect(response.headers['content-type']).toBe(PROBLEM_JSON_CONTENT_TYPE);
  expect(response.body).toEqual({
    type: expected.type ?? 'about:blank',
    title: expected.title ?? expect.any(String),
    status: expected.status,
    detail: expect.any(String),
    code: expected.code,
    parameterErrors: null,
  });
  expect(response.body.detail.length).toBeGreaterThan(0);
};

describe('problemDetailsErrors: the Idempotency-Key draft refusals as application/problem+json', () => {
  test('400 for a malformed key, 409 while the first request runs, 422 for a key reused with another body', async () => {
    const { app, slowStarted, releaseSlow } = await hostApp();
    const post = () => request(app).post('/transactions').set('SERVICE_API_KEY', managerKey);

    const badKey = await post().set('Idempotency-Key', 'x'.repeat(256)).send({ amount: 1 });
    expectProblem(badKey, { status: 400, code: 'VALIDATION_FAILED', title: STATUS_CODES[400] });

    const first = post().set('Idempotency-Key', 'key-1').send({ amount: 1, slow: true });
    const firstAnswer = first.then((response) => response);
    await slowStarted;
    const inProgress = await post().set('Idempotency-Key', 'key-1').send({ amount: 1, slow: true });
    expectProblem(inProgress, {
      status: 409,
      code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      title: STATUS_CODES[409],
    });
    expect(inProgress.headers['retry-after']).toBe('1');
    releaseSlow();
    expect((await firstAnswer).status).toBe(201);

    const reused = await post().set('Idempotency-Key', 'key-1').send({ amount: 2 });
    expectProblem(reused, { status: 422, code: 'IDEMPOTENCY_KEY_REUSED', title: STATUS_CODES[422] });

    // The replay of a success stays the route's own JSON.
    const replay = await post().set('Idempotency-Key', 'key-1').send({ amount: 1, slow: true });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  test('with typeBaseUri: a documented type and the title of each code; field paths kept as an extension', async () => {
    const { app } = await hostApp({ typeBaseUri: 'https://docs.portal.example/problems/' });
    const invalid = await request(app)
      .post('/onboarding/manager/v1/uploads/request-batch-upload')
      .set('SERVICE_API_KEY', managerKey)
      .set('Content-Type', 'application/json')
      .send({ filenames: [''] });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['content-type']).toBe(PROBLEM_JSON_CONTENT_TYPE);
    expect(invalid.body).toMatchObject({
      type: 'https://docs.portal.example/problems/validation-failed',
      title: 'Validation failed',
      status: 400,
      code: 'VALIDATION_FAILED',
      parameterErrors: { 'filenames[0]': expect.any(Array) },
    });
    const anonymous = await request(app).get('/onboarding/manager/v1/uploads');
    expect(anonymous.headers['content-type']).toBe(PROBLEM_JSON_CONTENT_TYPE);
    expect(anonymous.body).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      title: 'Authentication required',
    });
  });

  test('the OpenAPI document describes every error answer as application/problem+json with the schema', async () => {
    const document = createOpenApiDocument({
      errorSchema: problemDetailsSchema,
      errorContentType: PROBLEM_JSON_CONTENT_TYPE,
    });
    const errorAnswers = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) =>
        Object.entries(operation.responses as Record<string, { content?: Record<string, unknown> }>)
          .filter(([status]) => Number(status) >= 400)
          .map(([, response]) => response.content),
      ),
    );
    expect(errorAnswers.length).toBeGreaterThan(20);
    for (const content of errorAnswers) {
      expect(content).toEqual({
        [PROBLEM_JSON_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Error' } },
      });
    }
    expect((document.components as { schemas: Record<string, unknown> }).schemas.Error).toBe(
      problemDetailsSchema,
    );
  });
});
