import { randomUUID } from 'node:crypto';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createIndividual,
  errorBody,
  type Harness,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

/** Redaction of a deleted client (decisions §11), over HTTP on the memory adapters: the canary. */
export const describeRedaction = () =>
  describe('redaction of a deleted client', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    const asManager = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
      h.api[method](`/manager/v1${path}`).set('SERVICE_API_KEY', h.keys.managerA);
    const redact = (clientId: string) =>
      h.api.post(`/compliance/v1/clients/${clientId}/redact`).set('SERVICE_API_KEY', h.keys.compliance);

    test('after the whole flow and a redaction, the marker is in no answer and the documents are gone', async () => {
      const marker = `canary-${randomUUID()}`;
      const idDocument = `${randomUUID()}.pdf`;
      await uploadFiles(h, h.keys.managerA, { [idDocument]: `scan of ${marker}` });
      const payload = (document: string) => {
        const example = exampleIndividualPayload({ idDocuments: [document] });
        return {
          ...example,
          profile: { ...example.profile, firstName: `Ada ${marker}`, address: `1 ${marker} street` },
        };
      };
      const created = await asManager('post', '/clients/individuals').send(payload(idDocument));
      expect(created.status).toBe(201);
      const clientId: string = created.body.id;
      const firstKey: string = created.body.individualProfile.idDocuments[0];

      const asked = await h.api
        .post(`/compliance/v1/clients/${clientId}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({
          reason: `Reason about ${marker}`,
          requirements: [{ field: 'profile.address', code: 'OTHER', message: `Fix ${marker}` }],
        });
      expect(asked.status).toBe(200);
      const secondDocument = `${randomUUID()}.pdf`;
      await uploadFiles(h, h.keys.managerA, { [secondDocument]: `second scan of ${marker}` });
      const resubmitted = await asManager('put', `/clients/individuals/${clientId}/onboarding`).send(
        payload(secondDocument),
      );
      expect(resubmitted.status).toBe(201);
      const secondKey: string = resubmitted.body.individualProfile.idDocuments[0];
      const links = await asManager('post', '/documents/request-batch-download').send({
        filenames: [firstKey, secondKey],
      });
      expect(links.status).toBe(200);
      expect(await (await fetch(links.body.downloads[0].downloadUrl)).text()).toContain(marker);
      expect(
        (
          await h.api
            .post(`/compliance/v1/clients/${clientId}/approve`)
            .set('SERVICE_API_KEY', h.keys.compliance)
        ).status,
      ).toBe(200);

      // Not deleted yet: refused, and nothing changes.
      const early = await redact(clientId);
      expect(early.status).toBe(409);
      expect(early.body).toEqual(errorBody('INVALID_STATUS'));

      expect((await asManager('delete', `/clients/${clientId}`)).status).toBe(200);
      const redacted = await redact(clientId).set('Idempotency-Key', randomUUID());
      expect(redacted.status).toBe(200);
      expect(redacted.body).toMatchObject({
        id: clientId,
        status: 'DELETED',
        individualProfile: null,
        individualSourceOfFunds: null,
        company: null,
        companyRepresentatives: null,
        companyDirectorsAndUbos: null,
        bankAccounts: [],
        blockchainWallets: [],
        termsAcceptance: null,
        resubmissionRequirements: null,
        onboardingResubmissionReason: null,
        redactedAt: expect.any(String),
      });
      // A second redaction answers the same client.
      const again = await redact(clientId);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(redacted.body);

      const answers = [
        await asManager('get', `/clients/${clientId}`),
        await asManager('get', `/clients/${clientId}/status-history`),
        await asManager('get', `/clients/${clientId}/audit`),
        await h.api.get(`/compliance/v1/clients/${clientId}/audit`).set('SERVICE_API_KEY', h.keys.compliance),
        await asManager('get', `/events?clientId=${clientId}&limit=100`),
        await asManager('get', '/clients?limit=100'),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain(marker);
      }
      const events = answers[4]?.body.data as { type: string }[];
      expect(events.filter((event) => event.type === 'client.redacted')).toHaveLength(1);
      const audit = answers[3]?.body.data as { action: string; actor: unknown }[];
      expect(audit.filter((entry) => entry.action === 'redact')).toEqual([
        expect.objectContaining({ actor: { kind: 'compliance', id: 'compliance-team' } }),
      ]);
      const history = answers[1]?.body as { reason: string | null }[];
      expect(history.some((entry) => entry.reason === '[redacted]')).toBe(true);

      // The documents are gone from storage: their keys answer 404.
      const gone = await asManager('post', '/documents/request-batch-download').send({
        filenames: [firstKey, secondKey],
      });
      expect(gone.status).toBe(404);
      // A link issued before the erasure, still within its 15 minutes, serves nothing of it.
      for (const { downloadUrl } of links.body.downloads as { downloadUrl: string }[]) {
        const stale = await fetch(downloadUrl);
        expect(stale.status).toBe(403);
        expect(await stale.text()).not.toContain(marker);
      }
    });

    test('a retried create of a redacted client, with its body or another, replays the redacted answer: no second client, no 422', async () => {
      const marker = `canary-${randomUUID()}`;
      const [first, second] = [`${randomUUID()}.pdf`, `${randomUUID()}.pdf`];
      await uploadFiles(h, h.keys.managerA, { [first]: 'scan', [second]: 'another scan' });
      const example = exampleIndividualPayload({ idDocuments: [first] });
      const payload = { ...example, profile: { ...example.profile, lastName: `Doe ${marker}` } };
      const key = randomUUID();
      const create = (body: unknown) =>
        asManager('post', '/clients/individuals')
          .set('Idempotency-Key', key)
          .send(body as object);
      const created = await create(payload);
      expect(created.status).toBe(201);
      const clientId: string = created.body.id;
      expect((await asManager('delete', `/clients/${clientId}`)).status).toBe(200);
      const redacted = await redact(clientId);
      expect(redacted.status).toBe(200);

      const other = {
        ...payload,
        profile: { ...payload.profile, firstName: 'Someone else', idDocuments: [second] },
      };
      for (const body of [payload, other]) {
        const retried = await create(body);
        expect(retried.status).toBe(201);
        expect(retried.headers['idempotent-replayed']).toBe('true');
        expect(retried.body).toMatchObject({
          id: clientId,
          individualProfile: null,
          redactedAt: redacted.body.redactedAt,
        });
        expect(JSON.stringify(retried.body)).not.toContain(marker);
      }
      // The manager's clients hold the one redacted client, no second one with the erased data.
      const listed = await asManager('get', '/clients?limit=100');
      expect(JSON.stringify(listed.body)).not.toContain(marker);
      expect((listed.body.data as { id: string }[]).filter((client) => client.id === clientId)).toHaveLength(
        1,
      );
      // Another key still runs a new create.
      expect(
        (await asManager('post', '/clients/individuals').set('Idempotency-Key', randomUUID()).send(other))
          .body.id,
      ).not.toBe(clientId);
    });

    test('unknown client 404, not deleted 409', async () => {
      expect((await redact(randomUUID())).status).toBe(404);
      expect((await redact('not-a-uuid')).status).toBe(404);
      const client = await createIndividual(h, h.keys.managerB);
      expect((await redact(client.id)).body).toEqual(errorBody('INVALID_STATUS'));
    });

    test('managers cannot redact', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const answer = await h.api
        .post(`/manager/v1/clients/${client.id}/redact`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(answer.status).toBe(404);
    });
  });
