import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEntity, errorBody, type Harness, startHarness } from '../support/http-harness.js';

/** Flags the example entity's legal UBO (Martin Holding SARL) and its director (Hélène Martin). */
const listed = ['Martin Holding SARL', 'Hélène Martin'];
const exactList: ScreeningProvider = {
  screen: (subjects) =>
    okAsync(
      subjects
        .filter(({ name }) => listed.includes(name))
        .map(({ field, name }) => ({
          field,
          name,
          listName: 'Test list',
          matchedName: name,
          score: 0.95,
          targetId: `test-${name}`,
        })),
    ),
};

/** Screening over HTTP (decisions §12): the approve guard and compliance's resolution of a hit. */
export const describeScreening = () =>
  describe('screening: approval waits for it, compliance resolves its hits', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ ports: { screening: exactList } });
    });
    afterAll(() => h.close());

    const compliancePost = (path: string) =>
      h.api.post(`/compliance/v1/clients/${path}`).set('SERVICE_API_KEY', h.keys.compliance);
    const screeningOf = async (clientId: string) =>
      (await h.api.get(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', h.keys.managerA)).body
        .screening as { status: string; hits: { id: string; field: string }[] };

    test('approve is 409 SCREENING_UNRESOLVED while PENDING, and until every hit is dismissed', async () => {
      const client = await createEntity(h, h.keys.managerA);
      expect(await screeningOf(client.id)).toEqual({ status: 'PENDING', screenedAt: null, hits: [] });
      const pending = await compliancePost(`${client.id}/approve`);
      expect([pending.status, pending.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED', /PENDING/)]);
      expect(pending.headers['content-type']).toMatch(/^application\/json/);

      await h.adapters.testing.screenDueClients(h.kit);
      const screening = await screeningOf(client.id);
      expect(screening.status).toBe('POSSIBLE_MATCH');
      expect(screening.hits.map((hit) => hit.field)).toEqual([
        'representatives[0]',
        'companyDirectorsAndUbos.directors[0]',
        'companyDirectorsAndUbos.ubos[0]',
        'companyDirectorsAndUbos.ubos[1]',
      ]);
      const open = await compliancePost(`${client.id}/approve`);
      expect([open.status, open.body.code]).toEqual([409, 'SCREENING_UNRESOLVED']);

      const [first, ...rest] = screening.hits;
      if (first === undefined) expect.fail('hits');
      const confirmed = await compliancePost(`${client.id}/screening-hits/${first.id}/resolve`).send({
        decision: 'CONFIRMED',
        reason: 'Same person',
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.screening.hits[0].resolution).toEqual({
        decision: 'CONFIRMED',
        reason: 'Same person',
        actor: 'compliance-team',
        at: expect.any(String),
      });
      for (const hit of rest) {
        const dismissed = await compliancePost(`${client.id}/screening-hits/${hit.id}/resolve`).send({
          decision: 'DISMISSED',
          reason: 'Other person',
        });
        expect(dismissed.status).toBe(200);
      }
      const stillConfirmed = await compliancePost(`${client.id}/approve`);
      expect([stillConfirmed.status, stillConfirmed.body.code]).toEqual([409, 'SCREENING_UNRESOLVED']);
      await compliancePost(`${client.id}/screening-hits/${first.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'Other date of birth',
      });
      const approved = await compliancePost(`${client.id}/approve`);
      expect([approved.status, approved.body.status]).toEqual([
        200,
        'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
      ]);

      const audit = await h.api
        .get(`/compliance/v1/clients/${client.id}/audit`)
        .set('SERVICE_API_KEY', h.keys.compliance);
      expect(
        audit.body.data.filter((entry: { action: string }) => entry.action === 'screening-resolution'),
      ).toHaveLength(5);
    });

    test('resolve: a bad decision is 400 at `decision`, an unknown hit or client 404, a manager key 401/403', async () => {
      const client = await createEntity(h, h.keys.managerA);
      await h.adapters.testing.screenDueClients(h.kit);
      const [hit] = (await screeningOf(client.id)).hits;
      if (hit === undefined) expect.fail('a hit');

      const bad = await compliancePost(`${client.id}/screening-hits/${hit.id}/resolve`).send({
        decision: 'MAYBE',
        reason: 'x',
      });
      expect([bad.status, bad.body]).toEqual([
        400,
        errorBody('VALIDATION_FAILED', expect.any(String), { decision: [expect.any(String)] }),
      ]);
      const noReason = await compliancePost(`${client.id}/screening-hits/${hit.id}/resolve`).send({
        decision: 'DISMISSED',
      });
      expect([noReason.status, Object.keys(noReason.body.parameterErrors)]).toEqual([400, ['reason']]);

      const unknownHit = await compliancePost(
        `${client.id}/screening-hits/00000000-0000-4000-8000-000000000000/resolve`,
      ).send({ decision: 'DISMISSED', reason: 'x' });
      expect([unknownHit.status, unknownHit.body.code]).toEqual([404, 'SCREENING_HIT_NOT_FOUND']);
      const unknownClient = await compliancePost(
        `00000000-0000-4000-8000-000000000000/screening-hits/${hit.id}/resolve`,
      ).send({ decision: 'DISMISSED', reason: 'x' });
      expect([unknownClient.status, unknownClient.body.code]).toEqual([404, 'CLIENT_NOT_FOUND']);
      const notUuid = await compliancePost(`not-a-uuid/screening-hits/${hit.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'x',
      });
      expect([notUuid.status, notUuid.body.code]).toEqual([404, 'CLIENT_NOT_FOUND']);

      // Compliance's route only: a manager's key is not a compliance key.
      const byManager = await h.api
        .post(`/compliance/v1/clients/${client.id}/screening-hits/${hit.id}/resolve`)
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ decision: 'DISMISSED', reason: 'x' });
      expect([401, 403]).toContain(byManager.status);
      expect((await screeningOf(client.id)).hits[0]).toMatchObject({ resolution: null });
    });
  });
