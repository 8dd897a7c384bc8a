import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createEntity,
  createIndividual,
  errorBody,
  type Harness,
  seedPresetFee,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

const documentKey = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}_/;

/** Every route of the three interfaces, with the statuses and bodies of the spec and decisions §1–§6. */
export const describeInterfaceRoutes = () =>
  describe('routes of the three interfaces', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());
    const manager = () => h.keys.managerA;

    test('POST /clients/individuals → 201 under review, the uploads promoted to document keys', async () => {
      await uploadFiles(h, manager(), { 'passport.pdf': 'passport bytes', 'bill.pdf': 'bill bytes' });
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', manager())
        .send(
          exampleIndividualPayload({ idDocuments: ['passport.pdf'], proofOfAddressDocuments: ['bill.pdf'] }),
        );
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({
        status: 'ONBOARDING_UNDER_REVIEW',
        clientType: 'INDIVIDUAL',
        company: null,
      });
      expect(response.body.individualProfile.idDocuments).toEqual([expect.stringMatching(documentKey)]);
      expect(response.body.individualProfile.idDocuments[0]).toMatch(/_passport\.pdf$/);
      const uploads = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', manager());
      expect(uploads.body.files.map((file: { filename: string }) => file.filename)).not.toContain(
        'passport.pdf',
      );
    });

    test('every answer, success or error, is compact JSON marked no-store without an ETag, whatever the host’s json settings', async () => {
      const host = await startHarness({
        hostRoutes: (app) => {
          app.set('json spaces', 2);
          app.set('json replacer', () => 'replaced by the host');
          app.set('etag', 'strong');
        },
      });
      try {
        const fees = await host.api.get('/manager/v1/preset-fees').set('SERVICE_API_KEY', host.keys.managerA);
        const refused = await host.api.get('/manager/v1/preset-fees').set('SERVICE_API_KEY', 'no such key');
        const missing = await host.api
          .get('/manager/v1/no-such-route')
          .set('SERVICE_API_KEY', host.keys.managerA);
        for (const [answer, status] of [
          [fees, 200],
          [refused, 401],
          [missing, 404],
        ] as const) {
          expect(answer.status).toBe(status);
          expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(answer.headers['cache-control']).toBe('no-store');
          expect(answer.headers.etag).toBeUndefined();
          expect(answer.text).toBe(JSON.stringify(answer.body));
          expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
        }
        expect(fees.body).toEqual([]);
        expect(refused.body.code).toBe('UNAUTHORIZED');

        const head = await host.api
          .head('/manager/v1/preset-fees')
          .set('SERVICE_API_KEY', host.keys.managerA);
        expect(head.status).toBe(200);
        expect(head.headers['content-length']).toBe('2');
        expect(head.text).toBeUndefined();
      } finally {
        await host.close();
      }
    });

    test('routes match as Express matches them: any case, one trailing slash, HEAD by GET, req.route and req.params for the host', async () => {
      const seen: string[] = [];
      const host = await startHarness({
        hostRoutes: (app) => {
          // What a host's metrics middleware reads once the answer is sent.
          app.use((req, res, next) => {
            res.on('finish', () => {
              const route = (req.route as { path?: string } | undefined)?.path ?? '(none)';
              seen.push(
                `${req.method} ${req.baseUrl}${route} ${JSON.stringify(req.params)} ${res.statusCode}`,
              );
            });
            next();
          });
        },
      });
      try {
        const key = host.keys.managerA;
        const client = await createIndividual(host, key);
        const status = (path: string, method: 'get' | 'head' = 'get') =>
          host.api[method](path)
            .set('SERVICE_API_KEY', key)
            .then((answer) => answer.status);
        expect(await status('/manager/v1/preset-fees')).toBe(200);
        expect(await status('/manager/v1/PRESET-FEES/')).toBe(200);
        expect(await status('/manager/v1/preset-fees//')).toBe(404);
        expect(await status('/manager/v1/preset%2Dfees')).toBe(404);
        expect(await status(`/manager/v1/Clients/${client.id}/`)).toBe(200);
        expect(await status(`/manager/v1/clients/${client.id}`, 'head')).toBe(200);
        expect(await status('/manager/v1/clients//status-history')).toBe(404);
        expect(await status(`/manager/v1/clients/${client.id}/status-history/extra`)).toBe(404);
        // An encoded character of a parameter is decoded, as Express decodes it.
        const encoded = `${client.id.slice(0, -1)}%${client.id.charCodeAt(client.id.length - 1).toString(16)}`;
        expect(await status(`/manager/v1/clients/${encoded}`)).toBe(200);
        expect(seen.filter((line) => line.startsWith('GET /manager/v1/clients/:clientId'))).toEqual([
          `GET /manager/v1/clients/:clientId {"clientId":"${client.id}"} 200`,
          `GET /manager/v1/clients/:clientId {"clientId":"${client.id}"} 200`,
        ]);
        expect(seen).toContain(`HEAD /manager/v1/clients/:clientId {"clientId":"${client.id}"} 200`);
        expect(seen).toContain('GET /manager/v1/preset-fees {} 200');
      } finally {
        await host.close();
      }
    });

    test('GET /events → the manager’s own events of its changes, oldest first, and the compliance move', async () => {
      const fresh = await startHarness();
      try {
        const client = await createIndividual(fresh, fresh.keys.managerA);
        const approved = await fresh.api
          .post(`/compliance/v1/clients/${client.id}/approve`)
          .set('SERVICE_API_KEY', fresh.keys.compliance);
        expect(approved.status).toBe(200);
        const events = await fresh.api
          .get('/manager/v1/events?limit=10')
          .set('SERVICE_API_KEY', fresh.keys.managerA);
        expect(events.status).toBe(200);
        expect(events.body.data.map((event: { type: string }) => event.type)).toEqual([
          'client.created',
          'documents.promoted',
          'client.approved',
        ]);
        expect(events.body.data[2].data.client).toEqual(approved.body);
        const later = await fresh.api
          .get(`/manager/v1/events?after=${events.body.nextCursor}`)
          .set('SERVICE_API_KEY', fresh.keys.managerA);
        expect(later.body).toEqual({ data: [], nextCursor: events.body.nextCursor });
        const ofB = await fresh.api.get('/manager/v1/events').set('SERVICE_API_KEY', fresh.keys.managerB);
        expect(ofB.body).toEqual({ data: [], nextCursor: null });
        const crafted = await fresh.api
          .get('/manager/v1/events?after=xyz')
          .set('SERVICE_API_KEY', fresh.keys.managerA);
        expect(crafted.status).toBe(400);
        expect(crafted.body.parameterErrors).toEqual({ after: [expect.any(String)] });
      } finally {
        await fresh.close();
      }
    });

    test('a crafted cursor of any list (clients, events, webhook deliveries) → 400 VALIDATION_FAILED at its parameter', async () => {
      const tuple = (...elements: unknown[]) => Buffer.from(JSON.stringify(elements)).toString('base64url');
      const id = randomUUID();
      const endpoint = await h.api
        .post('/manager/v1/webhook-endpoints')
        .set('SERVICE_API_KEY', manager())
        .send({ url: 'https://hooks.example.com/cursors' });
      expect(endpoint.status, endpoint.text).toBe(201);
      const rowCursors = [
        tuple('Tue Nov 24 2026', id),
        tuple('2026', id),
        tuple('2026-02-30T08:00:00.000Z', id),
        tuple('+275760-09-13T00:00:00.000Z', id),
        tuple('2026-11-23T08:00:00.123Z', 'not-a-uuid'),
      ];
      const eventCursors = [
        Buffer.from('e1.9999999999999999999').toString('base64url'),
        tuple('1', '9999999999999999999'),
        tuple('1e3'),
        tuple('-1'),
      ];
      const lists: Array<readonly [path: string, parameter: string, cursor: string]> = [
        ...rowCursors.map((cursor) => ['/manager/v1/clients', 'cursor', cursor] as const),
        ...rowCursors.map(
          (cursor) =>
            [`/manager/v1/webhook-endpoints/${endpoint.body.id}/deliveries`, 'cursor', cursor] as const,
        ),
        ...eventCursors.map((cursor) => ['/manager/v1/events', 'after', cursor] as const),
      ];
      for (const [path, parameter, cursor] of lists) {
        const answer = await h.api
          .get(path)
          .query({ [parameter]: cursor })
          .set('SERVICE_API_KEY', manager());
        expect([answer.status, answer.body], `${path} ${cursor}`).toEqual([
          400,
          errorBody('VALIDATION_FAILED', 'The query parameters are invalid', {
            [parameter]: ['Invalid cursor: pass the nextCursor of a previous page'],
          }),
        ]);
      }
      expect(h.logged).toEqual([]);
    });

    test('a 410 Gone disables a webhook endpoint (GET shows why); POST …/enable enables it, once per Idempotency-Key', async () => {
      const fresh = await startHarness();
      try {
        const key = fresh.keys.managerA;
        const created = await fresh.api
          .post('/manager/v1/webhook-endpoints')
          .set('SERVICE_API_KEY', key)
          .send({ url: 'https://hooks.example.com/gone', eventTypes: ['client.created'] });
        expect(created.status, created.text).toBe(201);
        expect(created.body).toMatchObject({ failingSince: null, disabledAt: null, disabledReason: null });
        const path = `/manager/v1/webhook-endpoints/${created.body.id}`;
        fresh.adapters.testing.answerWebhooksWith({ type: 'answered', statusCode: 410, retryAfter: null });
        await createIndividual(fresh, key);
        expect(await fresh.adapters.testing.deliverDueWebhooks(fresh.kit)).toMatchObject({ failed: 1 });

        const disabled = await fresh.api.get(path).set('SERVICE_API_KEY', key);
        expect(disabled.status).toBe(200);
        expect(disabled.body).toMatchObject({
          disabledAt: fresh.clock.now().toISOString(),
          disabledReason: 'gone',
        });
        const notHis = await fresh.api
          .post(`${path}/enable`)
          .set('SERVICE_API_KEY', fresh.keys.managerB)
          .set('Idempotency-Key', randomUUID());
        expect([notHis.status, notHis.body.code]).toEqual([404, 'WEBHOOK_ENDPOINT_NOT_FOUND']);

        const idempotencyKey = randomUUID();
        const enabled = await fresh.api
          .post(`${path}/enable`)
          .set('SERVICE_API_KEY', key)
          .set('Idempotency-Key', idempotencyKey);
        expect(enabled.status, enabled.text).toBe(200);
        expect(enabled.body).toEqual({
          ...disabled.body,
          failingSince: null,
          disabledAt: null,
          disabledReason: null,
        });
        expect((await fresh.api.get(path).set('SERVICE_API_KEY', key)).body).toEqual(enabled.body);
        const replayed = await fresh.api
          .post(`${path}/enable`)
          .set('SERVICE_API_KEY', key)
          .set('Idempotency-Key', idempotencyKey);
        expect([replayed.status, replayed.body]).toEqual([200, enabled.body]);
        const unknown = await fresh.api
          .post(`/manager/v1/webhook-endpoints/${randomUUID()}/enable`)
          .set('SERVICE_API_KEY', key);
        expect([unknown.status, unknown.body.code]).toEqual([404, 'WEBHOOK_ENDPOINT_NOT_FOUND']);
        expect(fresh.logged).toEqual([]);
      } finally {
        await fresh.close();
      }
    });

    test('POST /clients/individuals naming a file never uploaded → 400 at its path, nothing created', async () => {
      const before = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', manager());
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', manager())
        .send(exampleIndividualPayload({ idDocuments: ['never-uploaded.pdf'] }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        errorBody('VALIDATION_FAILED', expect.any(String), {
          'profile.idDocuments[0]': [expect.any(String)],
        }),
      );
      const after = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', manager());
      expect(after.body.data).toHaveLength(before.body.data.length);
    });

    test('POST /clients/individuals with an unknown property → 400 naming its path', async () => {
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', manager())
        .send({ ...exampleIndividualPayload(), surprise: true });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(response.body.parameterErrors)).toContain('surprise');
    });

    test('POST /clients/entities → 201 and GET /clients/:id → 200 the same client', async () => {
      const created = await createEntity(h, manager());
      expect(created).toMatchObject({
        status: 'ONBOARDING_UNDER_REVIEW',
        clientType: 'ENTITY',
        individualProfile: null,
      });
      const read = await h.api.get(`/manager/v1/clients/${created.id}`).set('SERVICE_API_KEY', manager());
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created);
    });

    test('the whole review: resubmission asked, resubmitted (PUT 201), approved, terms signed, history', async () => {
      const client = await createIndividual(h, manager());
      const asked = await h.api
        .post(`/compliance/v1/clients/${client.id}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({ reason: 'The passport scan is blurred' });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({
        status: 'RESUBMISSION_REQUIRED',
        onboardingResubmissionReason: 'The passport scan is blurred',
      });

      await uploadFiles(h, manager(), { 'passport-sharp.pdf': 'sharp scan' });
      const resubmitted = await h.api
        .put(`/manager/v1/clients/individuals/${client.id}/onboarding`)
        .set('SERVICE_API_KEY', manager())
        .send(exampleIndividualPayload({ idDocuments: ['passport-sharp.pdf'] }));
      expect(resubmitted.status).toBe(201);
      expect(resubmitted.body).toMatchObject({
        id: client.id,
        status: 'ONBOARDING_UNDER_REVIEW',
        onboardingResubmissionReason: null,
      });

      const approved = await h.api
        .post(`/compliance/v1/clients/${client.id}/approve`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');

      const signed = await h.api
        .post(`/compliance/v1/clients/${client.id}/terms-signed`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(signed.status).toBe(200);
      expect(signed.body.status).toBe('VERIFIED');

      const history = await h.api
        .get(`/manager/v1/clients/${client.id}/status-history`)
        .set('SERVICE_API_KEY', manager());
      expect(history.status).toBe(200);
      expect(
        history.body.map((entry: { from: string | null; to: string }) => [entry.from, entry.to]),
      ).toEqual([
        [null, 'ONBOARDING_UNDER_REVIEW'],
        ['ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED'],
        ['RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW'],
        ['ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE'],
        ['WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED'],
      ]);
      expect(history.body[1]).toMatchObject({
        reason: 'The passport scan is blurred',
        actor: expect.any(String),
        at: expect.any(String),
      });

      const again = await h.api
        .post(`/compliance/v1/clients/${client.id}/approve`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(errorBody('INVALID_STATUS', /VERIFIED/));
    });

    test('a move the machine refuses → 409 INVALID_STATUS naming the current status', async () => {
      const client = await createIndividual(h, manager());
      const resubmit = await h.api
        .put(`/manager/v1/clients/individuals/${client.id}/onboarding`)
        .set('SERVICE_API_KEY', manager())
        .send(exampleIndividualPayload({ idDocuments: client.individualProfile.idDocuments }));
      expect(resubmit.status).toBe(409);
      expect(resubmit.body).toEqual(errorBody('INVALID_STATUS', /ONBOARDING_UNDER_REVIEW/));
      const signed = await h.api
        .post(`/compliance/v1/clients/${client.id}/terms-signed`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(signed.status).toBe(409);
      expect(signed.body).toEqual(errorBody('INVALID_STATUS', /ONBOARDING_UNDER_REVIEW/));
    });

    test('resubmitting an entity onboarding on an individual → 409 INVALID_STATUS', async () => {
      const client = await createIndividual(h, manager());
      await h.api
        .post(`/compliance/v1/clients/${client.id}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({ reason: 'More please' })
        .expect(200);
      const response = await h.api
        .put(`/manager/v1/clients/entities/${client.id}/onboarding`)
        .set('SERVICE_API_KEY', manager())
        .send(exampleEntityPayload());
      expect(response.status).toBe(409);
      expect(response.body).toEqual(errorBody('INVALID_STATUS', /INDIVIDUAL/));
    });

    test('PUT /clients/entities/:id/onboarding → 201 from RESUBMISSION_REQUIRED', async () => {
      const client = await createEntity(h, manager());
      await h.api
        .post(`/compliance/v1/clients/${client.id}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({ reason: 'Directors missing' })
        .expect(200);
      const response = await h.api
        .put(`/manager/v1/clients/entities/${client.id}/onboarding`)
        .set('SERVICE_API_KEY', manager())
        .send(exampleEntityPayload());
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ id: client.id, status: 'ONBOARDING_UNDER_REVIEW' });
    });

    test('request-resubmission without a reason → 400 at `reason`', async () => {
      const client = await createIndividual(h, manager());
      const response = await h.api
        .post(`/compliance/v1/clients/${client.id}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({});
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        errorBody('VALIDATION_FAILED', expect.any(String), { reason: [expect.any(String)] }),
      );
    });

    test('DELETE /clients/:id → 200 DELETED with deletedAt; a second DELETE → 409', async () => {
      const client = await createIndividual(h, manager());
      const deleted = await h.api
        .delete(`/manager/v1/clients/${client.id}`)
        .set('SERVICE_API_KEY', manager());
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id: client.id, status: 'DELETED', deletedAt: expect.any(String) });
      const again = await h.api.delete(`/manager/v1/clients/${client.id}`).set('SERVICE_API_KEY', manager());
      expect(again.status).toBe(409);
      expect(again.body).toEqual(errorBody('INVALID_STATUS', /DELETED/));
    });

    test('an unknown client → 404 CLIENT_NOT_FOUND on every client route', async () => {
      const unknown = randomUUID();
      await uploadFiles(h, manager(), { 'kept-scan.pdf': 'scan' });
      const answers = await Promise.all([
        h.api.get(`/manager/v1/clients/${unknown}`).set('SERVICE_API_KEY', manager()),
        h.api.delete(`/manager/v1/clients/${unknown}`).set('SERVICE_API_KEY', manager()),
        h.api.get(`/manager/v1/clients/${unknown}/status-history`).set('SERVICE_API_KEY', manager()),
        h.api
          .put(`/manager/v1/clients/individuals/${unknown}/onboarding`)
          .set('SERVICE_API_KEY', manager())
          .send(exampleIndividualPayload({ idDocuments: ['kept-scan.pdf'] })),
        h.api
          .put(`/manager/v1/clients/entities/${unknown}/onboarding`)
          .set('SERVICE_API_KEY', manager())
          .send(exampleEntityPayload()),
        h.api.post(`/compliance/v1/clients/${unknown}/approve`).set('SERVICE_API_KEY', h.keys.compliance),
        h.api
          .post(`/compliance/v1/clients/${unknown}/request-resubmission`)
          .set('SERVICE_API_KEY', h.keys.compliance)
          .send({ reason: 'x' }),
        h.api
          .post(`/compliance/v1/clients/${unknown}/terms-signed`)
          .set('SERVICE_API_KEY', h.keys.compliance),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual(errorBody('CLIENT_NOT_FOUND', `Client ${unknown} was not found`));
      }
    });

    test('GET /clients → newest first, filters, limit and cursor; a bad query → 400', async () => {
      const fresh = await h.register({ kind: 'manager', managerId: randomUUID() });
      const first = await createIndividual(h, fresh);
      h.clock.advance(1000);
      const second = await createEntity(h, fresh);
      h.clock.advance(1000);
      const third = await createIndividual(h, fresh);

      const all = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', fresh);
      expect(all.status).toBe(200);
      expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([third.id, second.id, first.id]);
      expect(all.body.nextCursor).toBeNull();

      const page = await h.api.get('/manager/v1/clients?limit=2').set('SERVICE_API_KEY', fresh);
      expect(page.body.data.map((c: { id: string }) => c.id)).toEqual([third.id, second.id]);
      expect(page.body.nextCursor).toEqual(expect.any(String));
      const next = await h.api
        .get('/manager/v1/clients')
        .query({ limit: 2, cursor: page.body.nextCursor })
        .set('SERVICE_API_KEY', fresh);
      expect(next.body).toEqual({ data: [expect.objectContaining({ id: first.id })], nextCursor: null });

      const entities = await h.api.get('/manager/v1/clients?clientType=ENTITY').set('SERVICE_API_KEY', fresh);
      expect(entities.body.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
      const verified = await h.api.get('/manager/v1/clients?status=VERIFIED').set('SERVICE_API_KEY', fresh);
      expect(verified.body.data).toEqual([]);

      for (const query of ['limit=0', 'limit=101', 'status=NOPE', 'sort=name']) {
        const bad = await h.api.get(`/manager/v1/clients?${query}`).set('SERVICE_API_KEY', fresh);
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe('VALIDATION_FAILED');
      }
    });

    test('POST /uploads/request-batch-upload → 200 PUT links; a bad filename → 400 at filenames[i]', async () => {
      const response = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', manager())
        .send({ filenames: ['a.pdf', 'b.png'] });
      expect(response.status).toBe(200);
      expect(response.body.uploads).toEqual([
        {
          filename: 'a.pdf',
          uploadUrl: expect.stringContaining(`${h.origin}/storage/uploads/`),
          method: 'PUT',
          headers: expect.any(Object),
          expiresAt: expect.any(String),
        },
        {
          filename: 'b.png',
          uploadUrl: expect.stringContaining(`${h.origin}/storage/uploads/`),
          method: 'PUT',
          headers: expect.any(Object),
          expiresAt: expect.any(String),
        },
      ]);
      const bad = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', manager())
        .send({ filenames: ['ok.pdf', '../etc/passwd'] });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(
        errorBody('VALIDATION_FAILED', expect.any(String), { 'filenames[1]': [expect.any(String)] }),
      );
    });

    test('GET /uploads → 200 the caller’s files with size and expiry; the client interface has its own', async () => {
      await uploadFiles(h, h.keys.clientOfA, { 'client-payslip.pdf': 'twelve bytes' }, '/client/v1');
      const clientFiles = await h.api.get('/client/v1/uploads').set('SERVICE_API_KEY', h.keys.clientOfA);
      expect(clientFiles.status).toBe(200);
      expect(clientFiles.body).toEqual({
        files: [
          {
            filename: 'client-payslip.pdf',
            size: 12,
            uploadedAt: expect.any(String),
            expiresAt: expect.any(String),
          },
        ],
      });
      const managerFiles = await h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', manager());
      expect(managerFiles.body.files.map((f: { filename: string }) => f.filename)).not.toContain(
        'client-payslip.pdf',
      );
    });

    test('POST /documents/request-batch-download → 200 links; an unknown key → 404 DOCUMENT_NOT_FOUND', async () => {
      const client = await createIndividual(h, manager(), 'id-card.pdf');
      const key = client.individualProfile.idDocuments[0] as string;
      const response = await h.api
        .post('/manager/v1/documents/request-batch-download')
        .set('SERVICE_API_KEY', manager())
        .send({ filenames: [key] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        downloads: [
          {
            filename: key,
            downloadUrl: expect.stringContaining(`${h.origin}/storage/downloads/`),
            expiresAt: expect.any(String),
          },
        ],
      });
      const unknown = `${randomUUID()}_nothing.pdf`;
      const missing = await h.api
        .post('/manager/v1/documents/request-batch-download')
        .set('SERVICE_API_KEY', manager())
        .send({ filenames: [key, unknown] });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorBody('DOCUMENT_NOT_FOUND', expect.stringContaining(unknown)));
    });

    test('GET /preset-fees → newest first with feeDirection; GET /preset-fees/:id → transactionType; unknown → 404', async () => {
      const managerId = randomUUID();
      const key = await h.register({ kind: 'manager', managerId });
      const older = await seedPresetFee(h, managerId, { createdAt: '2026-01-01T00:00:00.000Z' });
      const newer = await seedPresetFee(h, managerId, {
        createdAt: '2026-02-01T00:00:00.000Z',
        feeDirection: 'OFFRAMP',
        configuration: {
          type: 'MONTHLY_VOLUME',
          intermediaryLimits: [{ to: 1000, fee: 2 }],
          upperLimitFee: 1,
        },
      });
      const list = await h.api.get('/manager/v1/preset-fees').set('SERVICE_API_KEY', key);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          id: newer.id,
          feeDirection: 'OFFRAMP',
          fiatFeeGroup: 'USD',
          blockchainFeeGroup: 'USD_STABLECOIN',
          configuration: newer.configuration,
          createdAt: newer.createdAt,
        },
        {
          id: older.id,
          feeDirection: 'ONRAMP',
          fiatFeeGroup: 'USD',
          blockchainFeeGroup: 'USD_STABLECOIN',
          configuration: older.configuration,
          createdAt: older.createdAt,
        },
      ]);
      const one = await h.api.get(`/manager/v1/preset-fees/${older.id}`).set('SERVICE_API_KEY', key);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        id: older.id,
        transactionType: 'ONRAMP',
        fiatFeeGroup: 'USD',
        blockchainFeeGroup: 'USD_STABLECOIN',
        configuration: older.configuration,
        createdAt: older.createdAt,
      });
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const missing = await h.api.get(`/manager/v1/preset-fees/${id}`).set('SERVICE_API_KEY', key);
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(errorBody('PRESET_FEE_NOT_FOUND', `Preset fee ${id} was not found`));
      }
    });
  });
