import { randomUUID } from 'node:crypto';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DemoCall, demoCaller, sampleBytes, uploadThroughLinks } from './support/demo-http.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

let demo: TestDemo;
let call: DemoCall;
beforeAll(async () => {
  demo = await startTestDemo();
  call = demoCaller(demo.origin);
});
afterAll(() => demo.close());

const { managerA, managerB, clientA1, compliance } = demoIdentities;

describe('decisions §8: what the demo answers at start', () => {
  test('GET /openapi.json and GET /docs answer without a key', async () => {
    const document = await call('GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/manager/v1/clients/individuals',
        '/client/v1/uploads/request-batch-upload',
        '/compliance/v1/clients/{clientId}/approve',
      ]),
    );
    const page = await fetch(`${demo.origin}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    // Its script is served by the demo itself (no CDN).
    const script = /<script src="([^"]*swagger-ui-bundle\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${demo.origin}${script}`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  test('each manager key reads its own preset fees, of both configuration types', async () => {
    const feesOf = async (key: string) => {
      const answer = await call('GET', '/manager/v1/preset-fees', { key });
      expect(answer.status).toBe(200);
      return answer.body as Array<{ id: string; configuration: { type: string } }>;
    };
    const [feesA, feesB] = await Promise.all([feesOf(managerA.apiKey), feesOf(managerB.apiKey)]);
    for (const fees of [feesA, feesB]) {
      expect(new Set(fees.map((fee) => fee.configuration.type))).toEqual(new Set(['FLAT', 'MONTHLY_VOLUME']));
    }
    // Disjoint: a manager never sees the other's fees, and the other's id is an unknown one.
    expect(feesA.map((fee) => fee.id).filter((id) => feesB.some((other) => other.id === id))).toEqual([]);
    const foreign = await call('GET', `/manager/v1/preset-fees/${feesB[0]?.id}`, { key: managerA.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('PRESET_FEE_NOT_FOUND');
  });

  test('manager A sees its seeded client a1; manager B does not', async () => {
    const clientId = clientA1.principal.clientId;
    const ownClient = await call('GET', `/manager/v1/clients/${clientId}`, { key: managerA.apiKey });
    expect(ownClient.status).toBe(200);
    expect(ownClient.body).toMatchObject({ id: clientId, clientType: 'INDIVIDUAL' });
    const foreign = await call('GET', `/manager/v1/clients/${clientId}`, { key: managerB.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CLIENT_NOT_FOUND');
  });

  test('the client key works on the client interface, with uploads of its own', async () => {
    await uploadThroughLinks(call, clientA1.apiKey, { 'payslip.pdf': sampleBytes(2_000, 3) }, '/client/v1');
    const own = await call('GET', '/client/v1/uploads', { key: clientA1.apiKey });
    expect(own.status).toBe(200);
    expect(own.body.files).toEqual([expect.objectContaining({ filename: 'payslip.pdf', size: 2_000 })]);
    // The manager's temporary storage is its own: the client's upload is not in it.
    const managers = await call('GET', '/manager/v1/uploads', { key: managerA.apiKey });
    expect(managers.body.files.map((file: { filename: string }) => file.filename)).not.toContain(
      'payslip.pdf',
    );
  });

  test('the compliance key reviews: approving client a1 moves it on', async () => {
    const clientId = clientA1.principal.clientId;
    const approved = await call('POST', `/compliance/v1/clients/${clientId}/approve`, {
      key: compliance.apiKey,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      id: clientId,
      status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    });
  });

  test('a key answers only on its own interface: 403 elsewhere, 401 without a key', async () => {
    const attempts = [
      ['GET', '/manager/v1/preset-fees', clientA1.apiKey],
      ['GET', '/manager/v1/preset-fees', compliance.apiKey],
      ['GET', '/client/v1/uploads', managerA.apiKey],
      ['POST', `/compliance/v1/clients/${clientA1.principal.clientId}/terms-signed`, managerA.apiKey],
    ] as const;
    for (const [method, path, key] of attempts) {
      const answer = await call(method, path, { key });
      expect({ path, key, status: answer.status, code: answer.body.code }).toEqual({
        path,
        key,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
    const anonymous = await call('GET', '/manager/v1/preset-fees');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHORIZED');
  });
});

test('50 parallel creates with one Idempotency-Key over the socket make exactly one client', async () => {
  const key = managerB.apiKey;
  await uploadThroughLinks(call, key, { 'id-card.pdf': sampleBytes(10_000, 4) });
  const idempotencyKey = randomUUID();
  const payload = exampleIndividualPayload({ idDocuments: ['id-card.pdf'] });
  const before = await call('GET', '/manager/v1/clients?limit=100', { key });
  expect(before.body.data).toEqual([]);

  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      call('POST', '/manager/v1/clients/individuals', {
        key,
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    ),
  );

  const created = answers.filter((answer) => answer.status === 201);
  const inProgress = answers.filter((answer) => answer.status === 409);
  expect(created.length + inProgress.length).toBe(50);
  expect(created.length).toBeGreaterThanOrEqual(1);
  // Every 201 is the one client: the first, or its replay.
  expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
  expect(created.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  for (const answer of inProgress) {
    expect(answer.body.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect(answer.headers.get('retry-after')).toBe('1');
  }
  const after = await call('GET', '/manager/v1/clients?limit=100', { key });
  expect(after.body.data.map((client: { id: string }) => client.id)).toEqual([created[0]?.body.id]);
  expect(demo.logged).toEqual([]);
});

test('PUBLIC_BASE_URL is where the signed links point', async () => {
  const behindProxy = await startTestDemo({ PUBLIC_BASE_URL: 'https://onboarding-demo.example.com/' });
  try {
    expect(behindProxy.origin).toBe('https://onboarding-demo.example.com');
    const links = await demoCaller(`http://127.0.0.1:${behindProxy.port}`)(
      'POST',
      '/manager/v1/uploads/request-batch-upload',
      { key: managerA.apiKey, body: { filenames: ['passport.pdf'] } },
    );
    expect(links.status).toBe(200);
    expect(links.body.uploads[0].uploadUrl).toMatch(
      /^https:\/\/onboarding-demo\.example\.com\/storage\/uploads\/[\w.-]+$/,
    );
  } finally {
    await behindProxy.close();
  }
});
