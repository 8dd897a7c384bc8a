import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createEntity,
  createIndividual,
  type Harness,
  seedPresetFee,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

/** Status, JSON content type and body, with the identifier asked for replaced by a placeholder. */
const answerShape = (response: Response, askedFor: string) => ({
  status: response.status,
  contentType: response.headers['content-type'],
  body: JSON.parse(response.text.replaceAll(askedFor, '<asked-for>')),
});

/**
 * Decisions §2: another manager's resource answers exactly as an unknown one, on every route that
 * names a resource; lists never show another manager's data.
 */
export const describeManagerIsolation = () =>
  describe('isolation between managers', () => {
    let h: Harness;
    let individualId: string;
    let entityId: string;
    let documentKeyOfA: string;
    let presetFeeIdOfA: string;
    let endpointIdOfA: string;
    let deliveryIdOfA: string;
    beforeAll(async () => {
      h = await startHarness();
      const individual = await createIndividual(h, h.keys.managerA, 'a-passport.pdf');
      individualId = individual.id;
      documentKeyOfA = individual.individualProfile.idDocuments[0] as string;
      entityId = (await createEntity(h, h.keys.managerA)).id;
      presetFeeIdOfA = (await seedPresetFee(h, h.principals.managerA.managerId)).id;
      const endpoint = await h.api
        .post('/manager/v1/webhook-endpoints')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ url: 'https://hooks.example.com/isolation' });
      endpointIdOfA = endpoint.body.id;
      // An event of A's after the endpoint exists, delivered: a delivery of A's to redeliver.
      await h.api
        .delete(`/manager/v1/clients/${(await createEntity(h, h.keys.managerA)).id}`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      await h.adapters.testing.deliverDueWebhooks(h.kit);
      const deliveries = await h.api
        .get(`/manager/v1/webhook-endpoints/${endpointIdOfA}/deliveries`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      deliveryIdOfA = deliveries.body.data[0]?.id;
      expect(deliveryIdOfA).toEqual(expect.any(String));
      // B's own valid file, so a resubmission of B is refused for the client only.
      await uploadFiles(h, h.keys.managerB, { 'b-scan.pdf': 'b' });
    });
    afterAll(() => h.close());

    type Probe = (key: string, id: string) => Promise<Response>;
    const probes: Record<string, [Probe, () => string]> = {
      'GET /clients/:id': [
        (key, id) => h.api.get(`/manager/v1/clients/${id}`).set('SERVICE_API_KEY', key),
        () => individualId,
      ],
      'DELETE /clients/:id': [
        (key, id) => h.api.delete(`/manager/v1/clients/${id}`).set('SERVICE_API_KEY', key),
        () => entityId,
      ],
      'GET /clients/:id/status-history': [
        (key, id) => h.api.get(`/manager/v1/clients/${id}/status-history`).set('SERVICE_API_KEY', key),
        () => individualId,
      ],
      'GET /clients/:id/audit': [
        (key, id) => h.api.get(`/manager/v1/clients/${id}/audit`).set('SERVICE_API_KEY', key),
        () => individualId,
      ],
      'PUT /clients/individuals/:id/onboarding': [
        (key, id) =>
          h.api
            .put(`/manager/v1/clients/individuals/${id}/onboarding`)
            .set('SERVICE_API_KEY', key)
            .send(exampleIndividualPayload({ idDocuments: ['b-scan.pdf'] })),
        () => individualId,
      ],
      'PUT /clients/entities/:id/onboarding': [
        (key, id) =>
          h.api
            .put(`/manager/v1/clients/entities/${id}/onboarding`)
            .set('SERVICE_API_KEY', key)
            .send(exampleEntityPayload()),
        () => entityId,
      ],
      'POST /documents/request-batch-download': [
        (key, id) =>
          h.api
            .post('/manager/v1/documents/request-batch-download')
            .set('SERVICE_API_KEY', key)
            .send({ filenames: [id] }),
        () => documentKeyOfA,
      ],
      'GET /preset-fees/:id': [
        (key, id) => h.api.get(`/manager/v1/preset-fees/${id}`).set('SERVICE_API_KEY', key),
        () => presetFeeIdOfA,
      ],
      // The webhook routes, each on A's endpoint (its delivery for the redelivery).
      'GET /webhook-endpoints/:id': [
        (key, id) => h.api.get(`/manager/v1/webhook-endpoints/${id}`).set('SERVICE_API_KEY', key),
        () => endpointIdOfA,
      ],
      'POST /webhook-endpoints/:id/rotate-secret': [
        (key, id) =>
          h.api
            .post(`/manager/v1/webhook-endpoints/${id}/rotate-secret`)
            .set('SERVICE_API_KEY', key)
            .send({}),
        () => endpointIdOfA,
      ],
      'POST /webhook-endpoints/:id/enable': [
        (key, id) => h.api.post(`/manager/v1/webhook-endpoints/${id}/enable`).set('SERVICE_API_KEY', key),
        () => endpointIdOfA,
      ],
      'GET /webhook-endpoints/:id/deliveries': [
        (key, id) => h.api.get(`/manager/v1/webhook-endpoints/${id}/deliveries`).set('SERVICE_API_KEY', key),
        () => endpointIdOfA,
      ],
      'POST /webhook-endpoints/:id/deliveries/:deliveryId/redeliver': [
        (key, id) =>
          h.api
            .post(`/manager/v1/webhook-endpoints/${id}/deliveries/${deliveryIdOfA}/redeliver`)
            .set('SERVICE_API_KEY', key),
        () => endpointIdOfA,
      ],
      'DELETE /webhook-endpoints/:id': [
        (key, id) => h.api.delete(`/manager/v1/webhook-endpoints/${id}`).set('SERVICE_API_KEY', key),
        () => endpointIdOfA,
      ],
    };

    test.each(Object.keys(probes))(
      '%s: manager B on A’s resource answers as on an unknown one',
      async (route) => {
        const [probe, resourceOfA] = probes[route] as [Probe, () => string];
        const unknown = route.includes('download') ? `${randomUUID()}_a-passport.pdf` : randomUUID();
        const onForeign = await probe(h.keys.managerB, resourceOfA());
        const onUnknown = await probe(h.keys.managerB, unknown);
        expect(onForeign.status).toBe(404);
        expect(answerShape(onForeign, resourceOfA())).toEqual(answerShape(onUnknown, unknown));
      },
    );

    test('the foreign resource is untouched and still A’s', async () => {
      const entity = await h.api
        .get(`/manager/v1/clients/${entityId}`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(entity.body.status).toBe('ONBOARDING_UNDER_REVIEW');
      const fee = await h.api
        .get(`/manager/v1/preset-fees/${presetFeeIdOfA}`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(fee.status).toBe(200);
      const endpoint = await h.api
        .get(`/manager/v1/webhook-endpoints/${endpointIdOfA}`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect([endpoint.status, endpoint.body.url]).toEqual([200, 'https://hooks.example.com/isolation']);
    });

    test('the event feed filtered by A’s client answers B nothing of it', async () => {
      const ofB = await h.api
        .get('/manager/v1/events')
        .query({ clientId: individualId })
        .set('SERVICE_API_KEY', h.keys.managerB);
      expect([ofB.status, ofB.body]).toEqual([200, { data: [], nextCursor: null }]);
      const ofA = await h.api
        .get('/manager/v1/events')
        .query({ clientId: individualId })
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(ofA.body.data.length).toBeGreaterThan(0);
    });

    test('lists show only the caller’s clients, uploads and preset fees', async () => {
      await uploadFiles(h, h.keys.managerA, { 'only-a.pdf': 'a' });
      const [clients, uploads, fees] = await Promise.all([
        h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerB),
        h.api.get('/manager/v1/uploads').set('SERVICE_API_KEY', h.keys.managerB),
        h.api.get('/manager/v1/preset-fees').set('SERVICE_API_KEY', h.keys.managerB),
      ]);
      expect([clients.status, uploads.status, fees.status]).toEqual([200, 200, 200]);
      expect(clients.body).toEqual({ data: [], nextCursor: null });
      expect(uploads.body.files.map((file: { filename: string }) => file.filename)).toEqual(['b-scan.pdf']);
      expect(fees.body).toEqual([]);
    });

    test('a file A uploaded cannot be named by B: 400 at its path, as a file never uploaded', async () => {
      await uploadFiles(h, h.keys.managerA, { 'a-only-scan.pdf': 'a' });
      const foreign = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerB)
        .send(exampleIndividualPayload({ idDocuments: ['a-only-scan.pdf'] }));
      const never = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerB)
        .send(exampleIndividualPayload({ idDocuments: ['never-scan.pdf'] }));
      expect(foreign.status).toBe(400);
      expect(answerShape(foreign, 'a-only-scan.pdf')).toEqual(answerShape(never, 'never-scan.pdf'));
    });
  });
