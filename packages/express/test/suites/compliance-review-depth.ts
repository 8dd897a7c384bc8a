import { randomUUID } from 'node:crypto';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import { MAX_RESUBMISSION_REQUIREMENTS } from '@onboarding-kit/core/schemas';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createEntity,
  createIndividual,
  errorBody,
  type Harness,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

/** request-resubmission's requirements and terms-signed's evidence (decisions §12), over HTTP. */
export const describeComplianceReviewDepth = () =>
  describe('compliance review depth: resubmission requirements and terms evidence', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    const compliancePost = (clientId: string, move: string) =>
      h.api.post(`/compliance/v1/clients/${clientId}/${move}`).set('SERVICE_API_KEY', h.keys.compliance);
    const getClient = (clientId: string, key = h.keys.managerA) =>
      h.api.get(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', key);
    const invalidAt = (...paths: string[]) =>
      errorBody(
        'VALIDATION_FAILED',
        expect.any(String),
        Object.fromEntries(paths.map((path) => [path, [expect.any(String)]])),
      );

    const requirements = [
      { field: 'profile.idDocuments[0]', code: 'DOCUMENT_UNREADABLE', message: 'The scan is blurred' },
      {
        field: 'bankAccounts[0].identifiers.iban',
        code: 'INFORMATION_INCORRECT',
        message: 'Not the holder’s IBAN',
      },
    ];

    test('requirements are answered, carried by the event, and cleared by the resubmission', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      expect((await getClient(client.id)).body).toMatchObject({
        resubmissionRequirements: null,
        termsAcceptance: null,
      });
      const asked = await compliancePost(client.id, 'request-resubmission').send({
        reason: 'Two things to fix',
        requirements,
      });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({
        status: 'RESUBMISSION_REQUIRED',
        resubmissionRequirements: requirements,
      });
      expect((await getClient(client.id)).body.resubmissionRequirements).toEqual(requirements);

      const events = await h.api.get('/manager/v1/events').set('SERVICE_API_KEY', h.keys.managerA);
      const requested = events.body.data.find(
        (event: { type: string; data: { client?: { id: string } } }) =>
          event.type === 'client.resubmission_requested' && event.data.client?.id === client.id,
      );
      expect(requested.data.client.resubmissionRequirements).toEqual(requirements);

      // Another manager sees neither the client nor what was asked of it.
      expect((await getClient(client.id, h.keys.managerB)).status).toBe(404);

      await uploadFiles(h, h.keys.managerA, { 'passport-sharp.pdf': 'sharp scan' });
      const resubmitted = await h.api
        .put(`/manager/v1/clients/individuals/${client.id}/onboarding`)
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send(exampleIndividualPayload({ idDocuments: ['passport-sharp.pdf'] }));
      expect(resubmitted.status).toBe(201);
      expect(resubmitted.body).toMatchObject({
        onboardingResubmissionReason: null,
        resubmissionRequirements: null,
      });
    });

    test('a bad requirement is a 400 at its exact path, and the client is left under review', async () => {
      const individual = await createIndividual(h, h.keys.managerA);
      const entity = await createEntity(h, h.keys.managerA);
      const ask = (clientId: string, body: object) =>
        compliancePost(clientId, 'request-resubmission').send(body);
      const one = (overrides: object) => ({
        reason: 'Fix',
        requirements: [requirements[0], { ...requirements[0], ...overrides }],
      });

      const cases: [string, object, string[]][] = [
        [individual.id, one({ field: 'company.name' }), ['requirements[1].field']],
        [individual.id, one({ field: 'profile.nickname' }), ['requirements[1].field']],
        [individual.id, one({ field: 'profile.idDocuments[50]' }), ['requirements[1].field']],
        [individual.id, one({ field: 'profile..email' }), ['requirements[1].field']],
        [entity.id, { reason: 'Fix', requirements: [requirements[0]] }, ['requirements[0].field']],
        [individual.id, one({ code: 'BLURRY' }), ['requirements[1].code']],
        [individual.id, one({ message: '' }), ['requirements[1].message']],
        [individual.id, one({ message: 'x'.repeat(1001) }), ['requirements[1].message']],
        [individual.id, one({ severity: 'HIGH' }), ['requirements[1].severity']],
        [
          individual.id,
          {
            reason: 'Fix',
            requirements: Array.from({ length: MAX_RESUBMISSION_REQUIREMENTS + 1 }, () => requirements[0]),
          },
          ['requirements'],
        ],
        [individual.id, { reason: 'Fix', requirements: {} }, ['requirements']],
      ];
      for (const [clientId, body, paths] of cases) {
        const response = await ask(clientId, body);
        expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
        expect(response.body).toEqual(invalidAt(...paths));
      }
      for (const client of [individual, entity]) {
        expect((await getClient(client.id)).body).toMatchObject({
          status: 'ONBOARDING_UNDER_REVIEW',
          resubmissionRequirements: null,
        });
      }
      // A field of the entity payload is a field of an entity.
      const asked = await ask(entity.id, {
        reason: 'Fix',
        requirements: [
          { field: 'companyDirectorsAndUbos.ubos[1].name', code: 'INFORMATION_MISSING', message: 'Who?' },
        ],
      });
      expect(asked.status).toBe(200);
    });

    const evidence = () => ({
      termsVersion: '2026-03',
      signedAt: new Date(h.clock.now().getTime() - 60_000).toISOString(),
      signatoryName: 'Chloé Laurent',
      ipAddress: '2001:db8::7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    });
    const awaitingSignature = async () => {
      const client = await createIndividual(h, h.keys.managerA);
      await compliancePost(client.id, 'approve').expect(200);
      return client;
    };

    test('terms-signed stores the evidence as termsAcceptance; without a body it records none', async () => {
      const client = await awaitingSignature();
      const body = evidence();
      const signed = await compliancePost(client.id, 'terms-signed').send(body);
      expect(signed.status).toBe(200);
      expect(signed.body).toMatchObject({ status: 'VERIFIED', termsAcceptance: body });
      expect((await getClient(client.id)).body.termsAcceptance).toEqual(body);

      const bare = await awaitingSignature();
      const empty = await compliancePost(bare.id, 'terms-signed')
        .set('Content-Type', 'application/json')
        .send('');
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ status: 'VERIFIED', termsAcceptance: null });
    });

    test("without a body, the signature records no evidence behind a host's own JSON parser too", async () => {
      const host = await startHarness({ hostRoutes: (app) => app.use(express.json()) });
      try {
        const client = await createIndividual(host, host.keys.managerA);
        const post = (move: string) =>
          host.api
            .post(`/compliance/v1/clients/${client.id}/${move}`)
            .set('SERVICE_API_KEY', host.keys.compliance);
        await post('approve').expect(200);
        const signed = await post('terms-signed');
        expect(signed.status).toBe(200);
        expect(signed.body).toMatchObject({ status: 'VERIFIED', termsAcceptance: null });
      } finally {
        await host.close();
      }
    });

    test('bad evidence is a 400 at its field and signs nothing; a body that is not JSON is a 415', async () => {
      const client = await awaitingSignature();
      const future = new Date(h.clock.now().getTime() + 5 * 60_000).toISOString();
      const cases: [object, string[]][] = [
        [{ ...evidence(), ipAddress: '999.1.1.1' }, ['ipAddress']],
        [{ ...evidence(), ipAddress: 'example.com' }, ['ipAddress']],
        [{ ...evidence(), signedAt: future }, ['signedAt']],
        [{ ...evidence(), signedAt: 'yesterday' }, ['signedAt']],
        [{ ...evidence(), termsVersion: 'v'.repeat(101) }, ['termsVersion']],
        [{ ...evidence(), signatoryName: 'n'.repeat(1001) }, ['signatoryName']],
        [{ ...evidence(), userAgent: 'u'.repeat(1001) }, ['userAgent']],
        [{ ...evidence(), signature: 'base64' }, ['signature']],
      ];
      for (const [body, paths] of cases) {
        const response = await compliancePost(client.id, 'terms-signed').send(body);
        expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
        expect(response.body).toEqual(invalidAt(...paths));
      }
      const text = await compliancePost(client.id, 'terms-signed')
        .set('Content-Type', 'text/plain')
        .send('signed');
      expect(text.status).toBe(415);
      expect((await getClient(client.id)).body).toMatchObject({
        status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        termsAcceptance: null,
      });
    });

    test('with an Idempotency-Key: a refused body releases the key, the corrected one is replayed', async () => {
      const client = await awaitingSignature();
      const key = randomUUID();
      const sign = (body: object) =>
        compliancePost(client.id, 'terms-signed').set('Idempotency-Key', key).send(body);
      expect((await sign({ ...evidence(), ipAddress: 'not an ip' })).status).toBe(400);
      const body = evidence();
      const signed = await sign(body);
      expect(signed.status).toBe(200);
      const replayed = await sign(body);
      expect(replayed.status).toBe(200);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(signed.body);
      const reused = await sign({ ...body, signatoryName: 'Someone else' });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });
  });
