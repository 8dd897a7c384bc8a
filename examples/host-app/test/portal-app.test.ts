import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOnboardingKit,
  demoClientA1,
  exampleIndividualPayload,
  seedDemoData,
} from '@onboarding-kit/core';
import { onboardingKitPaths } from '@onboarding-kit/express';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createJsonLinesLogger } from '../src/json-lines-logger.js';
import { createPortalApp, ONBOARDING_PREFIX } from '../src/portal-app.js';

/**
 * The example host app as its users (and the outside check) see it: a portal with its own bearer
 * sessions, error shape and JSON logs, onboarding-kit mounted under /onboarding, on a real socket.
 */

const sessions = {
  managerA: 'Bearer demo-session-manager-a',
  managerB: 'Bearer demo-session-manager-b',
  compliance: 'Bearer demo-session-compliance',
};
const clientA1Id = demoClientA1(new Date().toISOString()).id;

let server: Server;
let origin: string;
const lines: string[] = [];
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const adapters = createMemoryAdapters({
    publicBaseUrl: `${origin}${onboardingKitPaths(ONBOARDING_PREFIX).storage}`,
  });
  (await seedDemoData(adapters))._unsafeUnwrap();
  const kit = createOnboardingKit(adapters);
  const logger = createJsonLinesLogger((line) => lines.push(line));
  const { app } = createPortalApp({ kit, signedLinks: adapters.signedLinks, logger });
  server.on('request', app);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  lines.length = 0;
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes, read field by field in the assertions
type Answer = { status: number; body: any; headers: Headers };
const call = async (
  method: string,
  path: string,
  {
    session,
    body,
    headers = {},
  }: { session?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> => {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(session ? { Authorization: session } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text), headers: response.headers };
};

/** The portal's error shape, with the request id the answer carries. */
const portalError = (answer: Answer, code: string, fields?: Record<string, string[]>) => {
  expect(answer.body).toEqual({
    error: {
      code,
      message: expect.any(String),
      requestId: answer.headers.get('x-request-id'),
      ...(fields ? { fields } : {}),
    },
  });
};

const uploadThroughLinks = async (session: string, files: Record<string, string>) => {
  const links = await call('POST', '/onboarding/manager/v1/uploads/request-batch-upload', {
    session,
    body: { filenames: Object.keys(files) },
  });
  expect(links.status).toBe(200);
  for (const upload of links.body.uploads as Array<{
    filename: string;
    uploadUrl: string;
    method: string;
    headers: Record<string, string>;
  }>) {
    expect(upload.uploadUrl.startsWith(`${origin}/onboarding/storage/uploads/`)).toBe(true);
    const put = await fetch(upload.uploadUrl, {
      method: upload.method,
      headers: upload.headers,
      body: files[upload.filename] ?? '',
    });
    expect(put.status).toBe(200);
  }
};

describe('sessions are the portal’s, not API keys', () => {
  test('manager A sees its seeded client; manager B does not', async () => {
    const ofA = await call('GET', '/onboarding/manager/v1/clients', { session: sessions.managerA });
    expect(ofA.status).toBe(200);
    expect(ofA.body.data.map((client: { id: string }) => client.id)).toContain(clientA1Id);
    const byB = await call('GET', `/onboarding/manager/v1/clients/${clientA1Id}`, {
      session: sessions.managerB,
    });
    expect(byB.status).toBe(404);
    portalError(byB, 'CLIENT_NOT_FOUND');
  });

  test('no session → 401, a session of another interface → 403, neither naming an API key', async () => {
    const anonymous = await call('GET', '/onboarding/manager/v1/clients');
    expect(anonymous.status).toBe(401);
    portalError(anonymous, 'UNAUTHORIZED');
    const wrongKind = await call('GET', '/onboarding/manager/v1/clients', { session: sessions.compliance });
    expect(wrongKind.status).toBe(403);
    portalError(wrongKind, 'FORBIDDEN');
    for (const answer of [anonymous, wrongKind])
      expect(JSON.stringify(answer.body)).not.toMatch(/API key|SERVICE_API_KEY/i);
  });
});

describe('the whole flow through the portal', () => {
  test('upload, create, review, approve and download, under /onboarding', async () => {
    await uploadThroughLinks(sessions.managerA, { 'passport.pdf': '%PDF-1.7 passport scan' });
    const created = await call('POST', '/onboarding/manager/v1/clients/individuals', {
      session: sessions.managerA,
      body: exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
      headers: { 'Idempotency-Key': 'portal-create-1' },
    });
    expect(created.status).toBe(201);
    const replay = await call('POST', '/onboarding/manager/v1/clients/individuals', {
      session: sessions.managerA,
      body: exampleIndividualPayload({ idDocuments: ['passport.pdf'] }),
      headers: { 'Idempotency-Key': 'portal-create-1' },
    });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.id]).toEqual([
      201,
      'true',
      created.body.id,
    ]);

    const review = await call('POST', `/onboarding/compliance/v1/clients/${created.body.id}/approve`, {
      session: sessions.compliance,
    });
    expect([review.status, review.body.status]).toEqual([200, 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE']);

    const [documentKey] = created.body.individualProfile.idDocuments as string[];
    const links = await call('POST', '/onboarding/manager/v1/documents/request-batch-download', {
      session: sessions.managerA,
      body: { filenames: [documentKey] },
    });
    expect(links.status).toBe(200);
    const download = await fetch(links.body.downloads[0].downloadUrl);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('%PDF-1.7 passport scan');
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''passport.pdf");
  });

  test('the portal’s own critical route is retry-safe with the kit’s idempotency', async () => {
    const send = (amount: number) =>
      call('POST', '/portal/payouts', {
        session: sessions.managerA,
        body: { amount },
        headers: { 'Idempotency-Key': 'payout-1' },
      });
    const first = await send(50);
    expect(first.status).toBe(201);
    const again = await send(50);
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([
      201,
      'true',
      first.body,
    ]);
    const reused = await send(60);
    expect(reused.status).toBe(422);
    portalError(reused, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('every error the portal answers has the portal’s shape, the kit’s codes and field paths kept', () => {
  test.each([
    [
      'an invalid payload',
      'POST',
      '/onboarding/manager/v1/clients/entities',
      { company: {} },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'malformed JSON',
      'POST',
      '/onboarding/manager/v1/clients/entities',
      '{"company":',
      400,
      'MALFORMED_JSON',
    ],
    ['an unknown kit route', 'GET', '/onboarding/manager/v1/nothing-here', undefined, 404, 'NOT_FOUND'],
    [
      'an interface the portal does not mount',
      'GET',
      '/onboarding/client/v1/uploads',
      undefined,
      404,
      'NOT_FOUND',
    ],
    ['an unknown portal route', 'GET', '/portal/nothing', undefined, 404, 'NOT_FOUND'],
    [
      'an unknown preset fee',
      'GET',
      `/onboarding/manager/v1/preset-fees/${crypto.randomUUID()}`,
      undefined,
      404,
      'PRESET_FEE_NOT_FOUND',
    ],
  ])('%s', async (_what, method, path, body, status, code) => {
    const answer = await call(method, path, {
      session: sessions.managerA,
      ...(body === undefined ? {} : { body }),
    });
    expect(answer.status).toBe(status);
    portalError(answer, code, answer.body.error?.fields);
  });

  test('field paths are the kit’s', async () => {
    const answer = await call('POST', '/onboarding/manager/v1/clients/individuals', {
      session: sessions.managerA,
      body: exampleIndividualPayload({ idDocuments: ['never-uploaded.pdf'] }),
    });
    expect(answer.status).toBe(400);
    portalError(answer, 'VALIDATION_FAILED', {
      'profile.idDocuments[0]': [
        'File "never-uploaded.pdf" is not in your temporary storage: upload it first',
      ],
    });
  });

  test('malformed JSON to a portal route of its own', async () => {
    const answer = await call('POST', '/portal/payouts', {
      session: sessions.managerA,
      body: '{"amount":',
    });
    expect(answer.status).toBe(400);
    portalError(answer, 'MALFORMED_JSON');
  });

  test('an altered signed link', async () => {
    const answer = await call('PUT', '/onboarding/storage/uploads/not-a-token', { body: 'x' });
    expect(answer.status).toBe(403);
    portalError(answer, 'FORBIDDEN');
  });

  test('the caller’s X-Request-Id is kept', async () => {
    const answer = await call('GET', '/onboarding/manager/v1/clients', {
      headers: { 'X-Request-Id': 'req-from-gateway-42' },
    });
    expect(answer.body.error.requestId).toBe('req-from-gateway-42');
  });
});

describe('/onboarding/openapi.json is the portal’s', () => {
  test('a bearer scheme only, the mounted interfaces only, the portal’s error body', async () => {
    const { status, body: document } = await call('GET', '/onboarding/openapi.json');
    expect(status).toBe(200);
    expect(document.security).toEqual([{ BearerSession: [] }]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(['BearerSession']);
    expect(document.components.securitySchemes.BearerSession).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const paths = Object.keys(document.paths);
    expect(
      paths.every(
        (path) => path.startsWith('/onboarding/manager/v1/') || path.startsWith('/onboarding/compliance/v1/'),
      ),
    ).toBe(true);
    expect(paths.some((path) => path.startsWith('/onboarding/compliance/v1/'))).toBe(true);
    expect(document.components.schemas.OnboardingError.properties.error.required).toEqual([
      'code',
      'message',
      'requestId',
    ]);
    expect(JSON.stringify(document)).not.toMatch(/SERVICE_API_KEY|ServiceApiKey/);
  });
});

describe('the portal’s logs', () => {
  test('JSON lines with the request id, the kit’s lines included; no body or document name', async () => {
    await uploadThroughLinks(sessions.managerA, { 'secret-name.pdf': 'content' });
    await call('POST', '/onboarding/manager/v1/clients/individuals', {
      session: sessions.managerA,
      body: exampleIndividualPayload({ idDocuments: ['secret-name.pdf'] }),
    });
    const refused = await call('GET', '/onboarding/manager/v1/clients', {
      headers: { 'X-Request-Id': 'req-refused-1' },
    });
    expect(refused.status).toBe(401);
    const entries = logged();
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        time: expect.any(String),
        level: expect.stringMatching(/^(info|warn|error)$/),
        message: expect.any(String),
      });
      expect(typeof entry.requestId).toBe('string');
    }
    // The kit's warning about the refused request, correlated by the request id.
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        requestId: 'req-refused-1',
        code: 'UNAUTHORIZED',
        status: 401,
      }),
    );
    expect(lines.join('')).not.toMatch(/secret-name|Amélie|content/);
  });
});
