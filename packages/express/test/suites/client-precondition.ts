import { randomUUID } from 'node:crypto';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operationsOf } from '../../src/interface-operations.js';
import type { OperationSpec } from '../../src/operation.js';
import {
  createIndividual,
  errorBody,
  type Harness,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

/**
 * A compliance decision that applies only to the client as its caller read it: GET answers the
 * client's version as a strong ETag, and `If-Match` with it on a decision route is compared in the
 * command's own transaction (412 CLIENT_CHANGED when the client changed). Without the header,
 * every route answers as before (the other suites).
 */
export const describeClientPrecondition = () =>
  describe('If-Match on compliance decisions: the ETag of the client as read', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    const getClient = (clientId: string, key = h.keys.compliance, base = '/compliance/v1') =>
      h.api.get(`${base}/clients/${clientId}`).set('SERVICE_API_KEY', key);
    const etagOf = async (clientId: string) => {
      const answer = await getClient(clientId);
      expect(answer.status).toBe(200);
      return String(answer.headers.etag);
    };
    const auditActions = async (clientId: string) =>
      (
        await h.api.get(`/compliance/v1/clients/${clientId}/audit`).set('SERVICE_API_KEY', h.keys.compliance)
      ).body.data.map((entry: { action: string }) => entry.action);
    const resubmitted = async (clientId: string) => {
      const asked = await h.api
        .post(`/compliance/v1/clients/${clientId}/request-resubmission`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .send({ reason: 'Another passport' });
      expect(asked.status).toBe(200);
      const document = `${randomUUID()}.pdf`;
      await uploadFiles(h, h.keys.managerA, { [document]: 'another scan' });
      const payload = exampleIndividualPayload({ idDocuments: [document] });
      const put = await h.api
        .put(`/manager/v1/clients/individuals/${clientId}/onboarding`)
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ ...payload, profile: { ...payload.profile, lastName: 'Someone-Else' } });
      expect(put.status).toBe(201);
    };

    test("GET answers the client's version as a strong ETag, the same to a manager and to compliance", async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const etag = await etagOf(client.id);
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect((await getClient(client.id, h.keys.managerA, '/manager/v1')).headers.etag).toBe(etag);
      // Any change of what is shown changes it, even where updatedAt cannot tell (the harness clock stands still).
      const before = (await getClient(client.id)).body.updatedAt;
      await h.api
        .post(`/compliance/v1/clients/${client.id}/assign`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      const assigned = await getClient(client.id);
      expect(assigned.body.updatedAt).toBe(before);
      expect(assigned.headers.etag).not.toBe(etag);
    });

    test('an approval with the ETag read before a resubmission: 412 CLIENT_CHANGED, nothing done, the key released', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const seen = await etagOf(client.id);
      await resubmitted(client.id);
      const key = randomUUID();
      const approve = (etag: string) =>
        h.api
          .post(`/compliance/v1/clients/${client.id}/approve`)
          .set('SERVICE_API_KEY', h.keys.compliance)
          .set('Idempotency-Key', key)
          .set('If-Match', etag);
      const stale = await approve(seen);
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual(errorBody('CLIENT_CHANGED', expect.stringContaining(client.id)));
      expect((await getClient(client.id)).body).toMatchObject({
        status: 'ONBOARDING_UNDER_REVIEW',
        individualProfile: { lastName: 'Someone-Else' },
      });
      expect(await auditActions(client.id)).toEqual(['create', 'request-resubmission', 'resubmit']);
      // The same request again (a retry, now or a day later) is refused again, never replayed as done.
      const again = await approve(seen);
      expect(again.status).toBe(412);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      // The key was released: with the ETag of what is there now, the same key approves.
      const fresh = await approve(await etagOf(client.id));
      expect(fresh.status).toBe(200);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(fresh.body.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
    });

    test('If-Match "*" and no If-Match run as before; a weak tag, a list or no quotes are 400', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const approve = (ifMatch?: string) => {
        const post = h.api
          .post(`/compliance/v1/clients/${client.id}/approve`)
          .set('SERVICE_API_KEY', h.keys.compliance);
        return ifMatch === undefined ? post : post.set('If-Match', ifMatch);
      };
      const etag = await etagOf(client.id);
      for (const malformed of [`W/${etag}`, `${etag}, ${etag}`, etag.slice(1, -1), '']) {
        const refused = await approve(malformed);
        expect(refused.status, malformed).toBe(400);
        expect(refused.body).toEqual(
          errorBody('VALIDATION_FAILED', expect.any(String), { 'If-Match': [expect.any(String)] }),
        );
      }
      expect(await auditActions(client.id)).toEqual(['create']);
      expect((await approve('*')).status).toBe(200);
      const other = await createIndividual(h, h.keys.managerA);
      const unconditional = await h.api
        .post(`/compliance/v1/clients/${other.id}/approve`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(unconditional.status).toBe(200);
    });

    test('every route that decides on a client refuses another version (412) and changes nothing', async () => {
      const withBase = (base: string, operations: Record<string, OperationSpec>) =>
        Object.values(operations).map((operation) => ({ ...operation, base }));
      const deciding = [
        ...withBase('/compliance/v1', operationsOf('compliance')),
        ...withBase('/manager/v1', operationsOf('manager')),
      ].filter((operation) => operation.ifMatch);
      expect(
        deciding.map((operation) => `${operation.method} ${operation.base}${operation.path}`).sort(),
      ).toEqual([
        'delete /compliance/v1/clients/:clientId',
        'delete /manager/v1/clients/:clientId',
        'post /compliance/v1/clients/:clientId/approve',
        'post /compliance/v1/clients/:clientId/assign',
        'post /compliance/v1/clients/:clientId/redact',
        'post /compliance/v1/clients/:clientId/release',
        'post /compliance/v1/clients/:clientId/request-resubmission',
        'post /compliance/v1/clients/:clientId/screening-hits/:hitId/resolve',
        'post /compliance/v1/clients/:clientId/terms-signed',
      ]);
      const client = await createIndividual(h, h.keys.managerA);
      const before = { etag: await etagOf(client.id), audit: await auditActions(client.id) };
      const other = `"${'f'.repeat(64)}"`;
      for (const operation of deciding) {
        const path = `${operation.base}${operation.path}`
          .replace(':clientId', client.id)
          .replace(':hitId', randomUUID());
        const key = operation.base === '/manager/v1' ? h.keys.managerA : h.keys.compliance;
        const call = h.api[operation.method](path).set('SERVICE_API_KEY', key).set('If-Match', other);
        // What each body must hold to pass its own validation, so that only the version can refuse it.
        const answer = await (operation.requestBody && operation.requestBody.optional !== true
          ? call.send(
              operation.path.endsWith('request-resubmission')
                ? { reason: 'r' }
                : operation.path.endsWith('resolve')
                  ? { decision: 'DISMISSED', reason: 'r' }
                  : {},
            )
          : call);
        expect(answer.status, `${operation.method} ${path}`).toBe(412);
        expect(answer.body.code).toBe('CLIENT_CHANGED');
      }
      expect({ etag: await etagOf(client.id), audit: await auditActions(client.id) }).toEqual(before);
      // Another manager learns nothing from If-Match: not found comes first, whatever the version.
      for (const etag of [other, before.etag]) {
        const foreign = await h.api
          .delete(`/manager/v1/clients/${client.id}`)
          .set('SERVICE_API_KEY', h.keys.managerB)
          .set('If-Match', etag);
        expect([foreign.status, foreign.body.code]).toEqual([404, 'CLIENT_NOT_FOUND']);
      }
    });
  });
