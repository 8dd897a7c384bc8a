import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness } from '../support/http-harness.js';

/** Authentication and the failures the binding decides itself (decisions §2 and §7). */
export const describeHttpErrors = () => {
  describe('authentication and binding errors', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    test('no key or an unknown key → 401 UNAUTHORIZED on every interface', async () => {
      for (const path of ['/manager/v1/clients', '/client/v1/uploads', '/compliance/v1/clients/x/approve']) {
        const method = path.endsWith('approve') ? 'post' : 'get';
        const missing = await h.api[method](path);
        expect(missing.status).toBe(401);
        expect(missing.body).toEqual(errorBody('UNAUTHORIZED'));
        const unknown = await h.api[method](path).set('SERVICE_API_KEY', 'not-a-key');
        expect(unknown.status).toBe(401);
        expect(unknown.body).toEqual(errorBody('UNAUTHORIZED'));
      }
    });

    test('the header name is case-insensitive', async () => {
      const response = await h.api.get('/manager/v1/clients').set('service_api_key', h.keys.managerA);
      expect(response.status).toBe(200);
    });

    test('a valid key of another interface → 403 FORBIDDEN', async () => {
      const cases = [
        h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.clientOfA),
        h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.compliance),
        h.api.get('/client/v1/uploads').set('SERVICE_API_KEY', h.keys.managerA),
        h.api.post('/compliance/v1/clients/x/approve').set('SERVICE_API_KEY', h.keys.managerA),
      ];
      for (const response of await Promise.all(cases)) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(errorBody('FORBIDDEN', /interface/));
      }
    });

    test('authentication runs first: an anonymous caller learns nothing of routes or bodies', async () => {
      const unknownRoute = await h.api.get('/manager/v1/nothing-here');
      const malformed = await h.api
        .post('/manager/v1/clients/individuals')
        .set('Content-Type', 'application/json')
        .send('{"profile":');
      const wrongType = await h.api
        .post('/manager/v1/clients/individuals')
        .set('Content-Type', 'text/plain')
        .send('hi');
      for (const response of [unknownRoute, malformed, wrongType]) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('UNAUTHORIZED');
      }
    });

    test('a body that is not JSON → 415; no body at all → 415', async () => {
      const text = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'text/plain')
        .send('profile=1');
      expect(text.status).toBe(415);
      expect(text.body).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE'));
      const form = await h.api
        .post('/compliance/v1/clients/x/request-resubmission')
        .set('SERVICE_API_KEY', h.keys.compliance)
        .type('form')
        .send({ reason: 'x' });
      expect(form.status).toBe(415);
      const empty = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(empty.status).toBe(415);
      expect(empty.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    test('application/json with a charset and +json types are accepted', async () => {
      const response = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ filenames: ['x.pdf'] }));
      expect(response.status).toBe(200);
      const vendor = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/vnd.example+json')
        .send(JSON.stringify({ filenames: ['x.pdf'] }));
      expect(vendor.status).toBe(200);
    });

    test('malformed JSON → 400 MALFORMED_JSON; valid JSON of the wrong shape → 400 VALIDATION_FAILED', async () => {
      const malformed = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .send('{"profile": {');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual(errorBody('MALFORMED_JSON'));
      const wrongShape = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .send('"just a string"');
      expect(wrongShape.status).toBe(400);
      expect(wrongShape.body.code).toBe('VALIDATION_FAILED');
    });

    test('a body over 1 MiB → 413 PAYLOAD_TOO_LARGE; just under is parsed', async () => {
      const payload = exampleIndividualPayload();
      const padding = (size: number) => JSON.stringify({ ...payload, padding: 'x'.repeat(size) });
      const over = padding(1_048_576);
      const tooLarge = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .send(over);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual(errorBody('PAYLOAD_TOO_LARGE', /1 MiB/));
      const base = padding(0).length;
      const under = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .send(padding(1_048_576 - base));
      expect(under.status).toBe(400);
      expect(under.body.code).toBe('VALIDATION_FAILED');
    });

    test('401 and 403 log lines name the route as a pattern, never the client id the path carried', async () => {
      const clientId = crypto.randomUUID();
      const before = h.warned.length;
      const answers = [
        await h.api.get(`/manager/v1/clients/${clientId}`),
        await h.api.get(`/manager/v1/clients/${clientId}/audit`).set('SERVICE_API_KEY', 'not-a-key'),
        await h.api
          .post(`/compliance/v1/clients/${clientId}/approve`)
          .set('SERVICE_API_KEY', h.keys.managerA),
        await h.api.get(`/manager/v1/nothing/${clientId}`),
      ];
      expect(answers.map(({ status }) => status)).toEqual([401, 401, 403, 401]);
      const lines = h.warned.slice(before);
      expect(lines.map(({ details }) => [details.status, details.method, details.path])).toEqual([
        [401, 'GET', '/manager/v1/clients/:clientId'],
        [401, 'GET', '/manager/v1/clients/:clientId/audit'],
        [403, 'POST', '/compliance/v1/clients/:clientId/approve'],
        [401, 'GET', '/manager/v1/*'],
      ]);
      expect(JSON.stringify(lines)).not.toContain(clientId);
    });

    test('an unknown route or method under each router → JSON 404 NOT_FOUND', async () => {
      const cases = [
        h.api.get('/manager/v1/nothing').set('SERVICE_API_KEY', h.keys.managerA),
        h.api.patch('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA),
        h.api.get('/client/v1/clients').set('SERVICE_API_KEY', h.keys.clientOfA),
        h.api.get('/compliance/v1/clients/x/approve').set('SERVICE_API_KEY', h.keys.compliance),
        h.api.get('/storage/elsewhere'),
      ];
      for (const response of await Promise.all(cases)) {
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toEqual(errorBody('NOT_FOUND'));
      }
    });
  });

  describe('a host’s own authenticate, and 500', () => {
    test('the host’s authenticate replaces the API key: its principal is used, null is 401', async () => {
      const managerId = crypto.randomUUID();
      const h = await startHarness({
        authenticate: async (req) =>
          req.get('Authorization') === 'Bearer host-session' ? { kind: 'manager', managerId } : null,
      });
      try {
        const allowed = await h.api.get('/manager/v1/clients').set('Authorization', 'Bearer host-session');
        expect(allowed.status).toBe(200);
        const refused = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
        expect(refused.status).toBe(401);
        const wrongInterface = await h.api
          .get('/client/v1/uploads')
          .set('Authorization', 'Bearer host-session');
        expect(wrongInterface.status).toBe(403);
      } finally {
        await h.close();
      }
    });

    test('an unexpected failure → 500 INTERNAL without internals; the cause goes to the host’s logger', async () => {
      const h = await startHarness({
        authenticate: async () => {
          throw new Error('session store exploded at db-7.internal:5432');
        },
      });
      try {
        const response = await h.api.get('/manager/v1/clients');
        expect(response.status).toBe(500);
        expect(response.body).toEqual(errorBody('INTERNAL', 'An unexpected error occurred'));
        expect(response.text).not.toContain('exploded');
        expect(response.text).not.toContain('db-7');
        expect(h.logged).toEqual([
          {
            message: expect.any(String),
            details: expect.objectContaining({
              method: 'GET',
              path: '/manager/v1/clients',
              cause: expect.objectContaining({ message: 'session store exploded at db-7.internal:5432' }),
            }),
          },
        ]);
      } finally {
        await h.close();
      }
    });
  });
};
