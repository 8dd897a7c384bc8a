import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOnboardingKit, exampleEntityPayload } from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { type FormatErrorBody, type HttpLogger, mountOnboardingKit } from '../../src/index.js';

/** A host's own error shape, and the JSON Schema its document must then carry. */
const formatError: FormatErrorBody = (error) => ({ error: { code: error.code, message: error.reason } });
const errorSchema = { type: 'object', required: ['error'] };
const silent: HttpLogger = { error: () => undefined };

/**
 * A host app as hosts write them: its own JSON parser for the whole app (optional), the kit under
 * `/kit` with the host's error body, then the host's own 404 and error handler (text, so an answer
 * of the host's is told apart from the kit's).
 */
const hostApp = async ({ hostJsonParser }: { readonly hostJsonParser: boolean }) => {
  const kit = createOnboardingKit(createMemoryAdapters());
  const key = `mount-${randomUUID()}`;
  (await kit.apiKeys.register(key, { kind: 'manager', managerId: randomUUID() }))._unsafeUnwrap();
  const complianceKey = `mount-${randomUUID()}`;
  (await kit.apiKeys.register(complianceKey, { kind: 'compliance', complianceId: 'team' }))._unsafeUnwrap();
  const app = express();
  if (hostJsonParser) app.use(express.json());
  app.post('/host/echo', (req, res) => {
    res.json(req.body);
  });
  app.use('/host/refuse', (_req, _res, next) => {
    next(Object.assign(new Error('slow down'), { status: 429 }));
  });
  mountOnboardingKit(app, kit, {
    prefix: '/kit',
    interfaces: ['manager', 'compliance'],
    formatError,
    logger: silent,
    openApi: { errorSchema },
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('host 404');
  });
  const hostErrors: ErrorRequestHandler = (error, _req, res, _next) => {
    res
      .status(error.status ?? 500)
      .type('text/plain')
      .send(`host error: ${error.type ?? error.message}`);
  };
  app.use(hostErrors);
  return { api: request(createServer(app)), key, complianceKey };
};

const kitError = (code: string) => ({ error: { code, message: expect.any(String) } });

/** `mountOnboardingKit` as a host meets it, on Express 4 and 5. */
export const describeMountOnboardingKit = () =>
  describe('mountOnboardingKit', () => {
    test('an unknown path or method under a mounted interface is the kit’s JSON NOT_FOUND, not the host’s 404', async () => {
      const { api, key } = await hostApp({ hostJsonParser: false });
      for (const [method, path] of [
        ['get', '/kit/manager/v1/no-such-route'],
        ['patch', '/kit/manager/v1/clients'],
        ['put', '/kit/manager/v1/preset-fees'],
        ['get', '/kit/manager/v1'],
        ['options', '/kit/manager/v1/clients'],
      ] as const) {
        const answer = await api[method](path).set('SERVICE_API_KEY', key);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
        expect(answer.body, `${method} ${path}`).toEqual(kitError('NOT_FOUND'));
      }
      // Without a key the kit says only that one is needed, as on its known routes.
      const anonymous = await api.get('/kit/manager/v1/no-such-route');
      expect([anonymous.status, anonymous.body]).toEqual([401, kitError('UNAUTHORIZED')]);
      // What the host did not give the kit stays the host's.
      expect((await api.get('/kit/client/v1/uploads').set('SERVICE_API_KEY', key)).text).toBe('host 404');
      expect((await api.get('/kit/elsewhere').set('SERVICE_API_KEY', key)).text).toBe('host 404');
    });

    test('formatError without openApi.errorSchema, or the reverse, is refused at mount naming both', () => {
      const kit = createOnboardingKit(createMemoryAdapters());
      expect(() => mountOnboardingKit(express(), kit, { formatError })).toThrow(
        /`formatError` is set but `openApi\.errorSchema` is not/,
      );
      expect(() => mountOnboardingKit(express(), kit, { formatError, openApi: { title: 'x' } })).toThrow(
        /openApi\.errorSchema/,
      );
      expect(() => mountOnboardingKit(express(), kit, { openApi: { errorSchema } })).toThrow(
        /`openApi\.errorSchema` is set but `formatError` is not/,
      );
      // Both, neither, or no document at all: nothing to describe wrongly.
      expect(
        mountOnboardingKit(express(), kit, { formatError, openApi: { errorSchema } }).openApiDocument,
      ).not.toBe(null);
      expect(mountOnboardingKit(express(), kit).openApiDocument).not.toBe(null);
      expect(mountOnboardingKit(express(), kit, { formatError, openApi: false }).openApiDocument).toBe(null);
    });

    describe('behind a host’s own express.json() for the whole app', () => {
      test('malformed JSON to the kit is the kit’s 400 MALFORMED_JSON, never an HTML page with a stack', async () => {
        const { api, key } = await hostApp({ hostJsonParser: true });
        const answer = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .set('Content-Type', 'application/json')
          .send('{"clientType": ');
        expect(answer.status).toBe(400);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(answer.body).toEqual(kitError('MALFORMED_JSON'));
        expect(answer.text).not.toMatch(/<html|SyntaxError|at JSON\.parse|node_modules/);
      });

      test('authentication still comes first: an anonymous or wrong-interface caller learns nothing of the body', async () => {
        const { api, complianceKey } = await hostApp({ hostJsonParser: true });
        const anonymous = await api
          .post('/kit/manager/v1/clients/entities')
          .set('Content-Type', 'application/json')
          .send('{oops');
        expect([anonymous.status, anonymous.body]).toEqual([401, kitError('UNAUTHORIZED')]);
        const otherInterface = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', complianceKey)
          .set('Content-Type', 'application/json')
          .send('{oops');
        expect([otherInterface.status, otherInterface.body]).toEqual([403, kitError('FORBIDDEN')]);
      });

      test('a body over the host parser’s limit is the kit’s 413, a charset it cannot read the kit’s 415', async () => {
        const { api, key } = await hostApp({ hostJsonParser: true });
        const large = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ padding: 'x'.repeat(200_000) }));
        expect([large.status, large.body]).toEqual([413, kitError('PAYLOAD_TOO_LARGE')]);
        const charset = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .set('Content-Type', 'application/json; charset=koi8-r')
          .send('{}');
        expect([charset.status, charset.body]).toEqual([415, kitError('UNSUPPORTED_MEDIA_TYPE')]);
      });

      test('a well-formed body parsed by the host reaches the kit: the create succeeds, validation is the kit’s', async () => {
        const { api, key } = await hostApp({ hostJsonParser: true });
        const created = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .send(exampleEntityPayload());
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ clientType: 'ENTITY', status: 'ONBOARDING_UNDER_REVIEW' });
        const invalid = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .send({ unknown: true });
        expect([invalid.status, invalid.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
        // The kit's own content-type rule still holds.
        const text = await api
          .post('/kit/manager/v1/clients/entities')
          .set('SERVICE_API_KEY', key)
          .set('Content-Type', 'text/plain')
          .send('{}');
        expect([text.status, text.body]).toEqual([415, kitError('UNSUPPORTED_MEDIA_TYPE')]);
      });

      test('an upload the host parser read or refused is 415 at once, and the same link then takes the file', async () => {
        const server = createServer();
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        try {
          const adapters = createMemoryAdapters({ publicBaseUrl: `${origin}/kit/storage` });
          const kit = createOnboardingKit(adapters);
          const key = `mount-${randomUUID()}`;
          (await kit.apiKeys.register(key, { kind: 'manager', managerId: randomUUID() }))._unsafeUnwrap();
          const app = express();
          app.use(express.json());
          mountOnboardingKit(app, kit, { prefix: '/kit', signedLinks: adapters.signedLinks, logger: silent });
          server.on('request', app);
          const links = await request(server)
            .post('/kit/manager/v1/uploads/request-batch-upload')
            .set('SERVICE_API_KEY', key)
            .send({ filenames: ['data.json'] });
          const [link] = links.body.uploads as { uploadUrl: string; headers: Record<string, string> }[];
          if (link === undefined) throw new Error('expected an upload link');
          const started = Date.now();
          for (const body of ['{"a":1}', '{"a":']) {
            const sentAsJson = await fetch(link.uploadUrl, {
              method: 'PUT',
              headers: { 'Content-Type': 'application/json' },
              body,
            });
            expect(sentAsJson.status, body).toBe(415);
            expect(((await sentAsJson.json()) as { code: string }).code).toBe('UNSUPPORTED_MEDIA_TYPE');
          }
          // At once, not after the upload deadline waiting for a body already read.
          expect(Date.now() - started).toBeLessThan(5_000);
          const asLinked = await fetch(link.uploadUrl, {
            method: 'PUT',
            headers: link.headers,
            body: '{"a":1}',
          });
          expect(asLinked.status).toBe(200);
          const listed = await request(server).get('/kit/manager/v1/uploads').set('SERVICE_API_KEY', key);
          expect(listed.body.files).toEqual([expect.objectContaining({ filename: 'data.json', size: 7 })]);
        } finally {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      });

      test('the host’s own routes and errors stay the host’s', async () => {
        const { api } = await hostApp({ hostJsonParser: true });
        const own = await api.post('/host/echo').set('Content-Type', 'application/json').send('{oops');
        expect([own.status, own.text]).toEqual([400, 'host error: entity.parse.failed']);
        expect((await api.post('/host/echo').send({ a: 1 })).body).toEqual({ a: 1 });
        const refused = await api.get('/host/refuse');
        expect([refused.status, refused.text]).toEqual([429, 'host error: slow down']);
      });
    });
  });
