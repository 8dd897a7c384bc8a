import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createIndividual, type Harness, startHarness } from '../support/http-harness.js';

/** Decisions §10 over HTTP: the audit routes, and the request id reaching the entries. */
export const describeAuditTrail = () =>
  describe('audit trail routes', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({
        // A host that names its requests itself (res.locals wins over the header).
        hostRoutes: (app) =>
          app.use((req, res, next) => {
            const named = req.get('x-host-request');
            if (named !== undefined) res.locals.requestId = named;
            next();
          }),
      });
    });
    afterAll(() => h.close());

    test('each change and download request is an entry with its actor and request id, on both interfaces', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const approved = await h.api
        .post(`/compliance/v1/clients/${client.id}/approve`)
        .set('SERVICE_API_KEY', h.keys.compliance)
        .set('X-Request-Id', 'req-approve');
      expect(approved.status).toBe(200);
      const key = client.individualProfile.idDocuments[0] as string;
      const links = await h.api
        .post('/manager/v1/documents/request-batch-download')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('X-Request-Id', 'ignored-header')
        .set('X-Host-Request', 'req-host')
        .set('Idempotency-Key', randomUUID())
        .send({ filenames: [key] });
      expect(links.status).toBe(200);

      const asManager = await h.api
        .get(`/manager/v1/clients/${client.id}/audit`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      const asCompliance = await h.api
        .get(`/compliance/v1/clients/${client.id}/audit`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(asManager.status).toBe(200);
      expect(asCompliance.body).toEqual(asManager.body);
      expect(asManager.body.nextCursor).toBeNull();
      expect(
        asManager.body.data.map(
          (entry: { action: string; actor: unknown; requestId: unknown; documents: unknown }) => [
            entry.action,
            entry.actor,
            entry.requestId,
            entry.documents,
          ],
        ),
      ).toEqual(
        [
          ['create', { kind: 'manager', id: h.principals.managerA.managerId }, null],
          ['approve', { kind: 'compliance', id: 'compliance-team' }, 'req-approve', []],
          [
            'download-links-issued',
            { kind: 'manager', id: h.principals.managerA.managerId },
            'req-host',
            [key],
          ],
        ].map(([action, actor, requestId, documents]) => [action, actor, requestId, documents ?? []]),
      );
    });

    test('pages with limit and cursor; a crafted cursor is 400; unknown clients and other keys are refused', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const key = client.individualProfile.idDocuments[0] as string;
      for (let i = 0; i < 3; i += 1) {
        const links = await h.api
          .post('/manager/v1/documents/request-batch-download')
          .set('SERVICE_API_KEY', h.keys.managerA)
          .send({ filenames: [key] });
        expect(links.status).toBe(200);
      }
      const path = `/manager/v1/clients/${client.id}/audit`;
      const first = await h.api.get(path).query({ limit: 3 }).set('SERVICE_API_KEY', h.keys.managerA);
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(3);
      const second = await h.api
        .get(path)
        .query({ limit: 3, cursor: first.body.nextCursor })
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(second.body.data).toHaveLength(1);
      expect(second.body.nextCursor).toBeNull();

      const crafted = await h.api
        .get(path)
        .query({ cursor: 'WyIxIn0' })
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(crafted.status).toBe(400);
      expect(crafted.body.parameterErrors).toHaveProperty('cursor');
      const unknown = await h.api
        .get(`/compliance/v1/clients/${randomUUID()}/audit`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(unknown.status).toBe(404);
      const asClient = await h.api
        .get(`/client/v1/clients/${client.id}/audit`)
        .set('SERVICE_API_KEY', h.keys.clientOfA);
      expect(asClient.status).toBe(404);
      const anonymous = await h.api.get(path);
      expect(anonymous.status).toBe(401);
    });

    test('compliance verifies the chain and sees the first entry forged behind the log; managers cannot', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      for (const move of ['approve', 'terms-signed']) {
        const moved = await h.api
          .post(`/compliance/v1/clients/${client.id}/${move}`)
          .set('SERVICE_API_KEY', h.keys.compliance);
        expect(moved.status).toBe(200);
      }
      const path = `/compliance/v1/clients/${client.id}/audit/verification`;
      const intact = await h.api.get(path).set('SERVICE_API_KEY', h.keys.compliance);
      expect(intact.status).toBe(200);
      expect(intact.body).toEqual({
        clientId: client.id,
        verified: true,
        checkedEntries: 3,
        lastHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        head: { sequence: 3, hash: intact.body.lastHash },
        sealsChecked: false,
        anchor: null,
        firstBrokenLink: null,
      });
      // The head kept as an anchor: the same trail holds it.
      const anchor = { anchorSequence: '3', anchorHash: intact.body.lastHash };
      const anchored = await h.api.get(path).query(anchor).set('SERVICE_API_KEY', h.keys.compliance);
      expect(anchored.body).toMatchObject({
        verified: true,
        anchor: { sequence: 3, hash: anchor.anchorHash },
      });
      for (const query of [
        { anchorSequence: '3' },
        { anchorHash: anchor.anchorHash },
        { anchorSequence: '0', anchorHash: anchor.anchorHash },
        { anchorSequence: '3', anchorHash: 'ABC' },
        { ...anchor, limit: '5' },
      ]) {
        const refused = await h.api.get(path).query(query).set('SERVICE_API_KEY', h.keys.compliance);
        expect(refused.status, JSON.stringify(query)).toBe(400);
        expect(refused.body.code).toBe('VALIDATION_FAILED');
      }

      const entries = h.adapters.testing.readAuditEntries(client.id);
      await h.adapters.testing.forgeAuditEntry(entries[1]?.id as string, {
        actor: { kind: 'compliance', id: 'someone-else' },
      });
      const forged = await h.api.get(path).set('SERVICE_API_KEY', h.keys.compliance);
      expect(forged.status).toBe(200);
      expect(forged.body).toEqual({
        clientId: client.id,
        verified: false,
        checkedEntries: 2,
        lastHash: null,
        head: null,
        sealsChecked: false,
        anchor: null,
        firstBrokenLink: { entryId: entries[1]?.id, sequence: 2, reason: 'ENTRY_ALTERED' },
      });

      // A cut tail: the chain that is left holds, only the anchor tells.
      const cut = await createIndividual(h, h.keys.managerA);
      await h.api.post(`/compliance/v1/clients/${cut.id}/approve`).set('SERVICE_API_KEY', h.keys.compliance);
      const cutPath = `/compliance/v1/clients/${cut.id}/audit/verification`;
      const { head } = (await h.api.get(cutPath).set('SERVICE_API_KEY', h.keys.compliance)).body;
      await h.adapters.testing.forgeAuditEntry(
        h.adapters.testing.readAuditEntries(cut.id)[1]?.id as string,
        null,
      );
      const unanchored = await h.api.get(cutPath).set('SERVICE_API_KEY', h.keys.compliance);
      expect(unanchored.body).toMatchObject({ verified: true, checkedEntries: 1 });
      const tail = await h.api
        .get(cutPath)
        .query({ anchorSequence: String(head.sequence), anchorHash: head.hash })
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(tail.body).toMatchObject({
        verified: false,
        checkedEntries: 1,
        head: null,
        firstBrokenLink: { entryId: null, sequence: 2, reason: 'TAIL_MISSING' },
      });

      const unknown = await h.api
        .get(`/compliance/v1/clients/${randomUUID()}/audit/verification`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('CLIENT_NOT_FOUND');
      const malformed = await h.api
        .get('/compliance/v1/clients/not-a-uuid/audit/verification')
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(malformed.status).toBe(404);
      const asManager = await h.api
        .get(`/manager/v1/clients/${client.id}/audit/verification`)
        .set('SERVICE_API_KEY', h.keys.managerA);
      expect(asManager.status).toBe(404);
      expect(asManager.body.code).toBe('NOT_FOUND');
      const anonymous = await h.api.get(path);
      expect(anonymous.status).toBe(401);
    });
  });
