import { Readable } from 'node:stream';
import { exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import {
  createListScreeningProvider,
  loadSanctionsList,
  type SanctionsList,
} from '@onboarding-kit/screening-list';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness, uploadFiles } from '../support/http-harness.js';

/** A list naming Dmitri Sokolov, born 1961, with a few others so that words weigh as on a list. */
const targetsCsv = [
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change',
  'ev-sokolov,Person,Dmitri Sokolov,,1961-04-12,ru,,,,,,,Evidence List,,,',
  'ev-petrov,Person,Viktor Petrov,,1970-01-01,ru,,,,,,,Evidence List,,,',
  'ev-ivanova,Person,Anna Ivanova,,1980-02-02,ru,,,,,,,Evidence List,,,',
].join('\n');

type Hit = {
  id: string;
  field: string;
  targetId: string;
  resolution: { decision: string } | null;
  explanation: { birthDate: { subject: string; outcome: string } | null } | null;
};
type Screening = { status: string; hits: Hit[] };

// biome-ignore lint/suspicious/noExplicitAny: payloads are changed field by field, as a caller would
type LoosePayload = Record<string, any>;

const compliancePost = (h: Harness, path: string) =>
  h.api.post(`/compliance/v1/clients/${path}`).set('SERVICE_API_KEY', h.keys.compliance);
/** Runs the due screenings, then answers the client's screening as its manager reads it. */
const screened = async (h: Harness, clientId: string): Promise<Screening> => {
  await h.adapters.testing.screenDueClients(h.kit);
  const client = await h.api.get(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', h.keys.managerA);
  return client.body.screening;
};
/** An individual's payload naming a passport of its own, uploaded, with this name and date of birth. */
const individual = async (h: Harness, first: string, last: string, dateOfBirth: string) => {
  const passport = `${crypto.randomUUID()}.pdf`;
  await uploadFiles(h, h.keys.managerA, { [passport]: 'a passport' });
  const payload: LoosePayload = exampleIndividualPayload({ idDocuments: [passport] });
  payload.profile.firstName = first;
  payload.profile.lastName = last;
  payload.profile.dateOfBirth = dateOfBirth;
  return payload;
};
const createIndividual = (h: Harness, payload: LoosePayload) =>
  h.api.post('/manager/v1/clients/individuals').set('SERVICE_API_KEY', h.keys.managerA).send(payload);
const resubmitIndividual = (h: Harness, clientId: string, payload: LoosePayload) =>
  h.api
    .put(`/manager/v1/clients/individuals/${clientId}/onboarding`)
    .set('SERVICE_API_KEY', h.keys.managerA)
    .send(payload);

/**
 * The date of birth is evidence the client writes itself, beside its name: it must not let a listed
 * person through, at create (a name written another way with a false year) or at a resubmission
 * (a dismissal made on one date kept for another). Over HTTP, on the list provider.
 */
export const describeScreeningEvidence = () => {
  describe('screening evidence: a false or changed date of birth does not let a listed person through', () => {
    let h: Harness;
    beforeAll(async () => {
      const list = (await loadSanctionsList(Readable.from([targetsCsv])))._unsafeUnwrap();
      h = await startHarness({ ports: { screening: createListScreeningProvider({ list }) } });
    });
    afterAll(() => h.close());

    const manager = () => h.keys.managerA;

    test.each([
      ['Dmitry', 'Sokolov'],
      ['Dmitri', 'Sokolow'],
      ['Dmitrii', 'Sokolov'],
    ])(
      'near-exact-name-with-a-false-birth-date: the profile %s %s born 1990 is a POSSIBLE_MATCH, not approvable',
      async (first, last) => {
        const created = await createIndividual(h, await individual(h, first, last, '1990-01-01'));
        expect(created.status).toBe(201);
        const screening = await screened(h, created.body.id);
        expect(screening.status).toBe('POSSIBLE_MATCH');
        expect(screening.hits).toEqual([
          expect.objectContaining({
            field: 'profile',
            targetId: 'ev-sokolov',
            explanation: expect.objectContaining({
              birthDate: { subject: '1990-01-01', listed: ['1961-04-12'], outcome: 'MISMATCH' },
            }),
          }),
        ]);
        const refused = await compliancePost(h, `${created.body.id}/approve`);
        expect([refused.status, refused.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED')]);
      },
    );

    test('near-exact-name-with-a-false-birth-date: a director and a natural UBO born in 1900 are hits as well', async () => {
      const payload: LoosePayload = exampleEntityPayload();
      payload.companyDirectorsAndUbos.directors[0].name = 'Dmitry Sokolov';
      payload.companyDirectorsAndUbos.directors[0].dateOfBirth = '1900-01-01';
      payload.companyDirectorsAndUbos.ubos[0].name = 'Sokolov Dmitrii';
      payload.companyDirectorsAndUbos.ubos[0].dateOfBirth = '1900-02-28';
      const created = await h.api
        .post('/manager/v1/clients/entities')
        .set('SERVICE_API_KEY', manager())
        .send(payload);
      expect(created.status).toBe(201);
      const screening = await screened(h, created.body.id);
      expect(screening.hits.map(({ field, targetId }) => [field, targetId])).toEqual([
        ['companyDirectorsAndUbos.directors[0]', 'ev-sokolov'],
        ['companyDirectorsAndUbos.ubos[0]', 'ev-sokolov'],
      ]);
      expect((await compliancePost(h, `${created.body.id}/approve`)).status).toBe(409);
    });

    test('dismissal-kept-for-another-birth-date: a hit dismissed for the client born 1990 comes back when a resubmission gives the listed date', async () => {
      const created = await createIndividual(h, await individual(h, 'Dmitri', 'Sokolov', '1990-01-01'));
      expect(created.status).toBe(201);
      const clientId: string = created.body.id;
      const [hit] = (await screened(h, clientId)).hits;
      expect(hit?.explanation?.birthDate?.outcome).toBe('MISMATCH');
      const dismissed = await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'Born 1990: the listed Dmitri Sokolov was born 1961',
      });
      expect(dismissed.status).toBe(200);
      expect(
        (await compliancePost(h, `${clientId}/request-resubmission`).send({ reason: 'New passport' })).status,
      ).toBe(200);

      // The same name and target, now with the listed person's date: the dismissal does not cover it.
      const resubmitted = await resubmitIndividual(
        h,
        clientId,
        await individual(h, 'Dmitri', 'Sokolov', '1961-04-12'),
      );
      expect(resubmitted.status).toBe(201);
      const again = await screened(h, clientId);
      expect(again.status).toBe('POSSIBLE_MATCH');
      const open = again.hits.filter((each) => each.resolution === null);
      expect(open).toEqual([
        expect.objectContaining({
          targetId: 'ev-sokolov',
          explanation: expect.objectContaining({ birthDate: expect.objectContaining({ outcome: 'MATCH' }) }),
        }),
      ]);
      const refused = await compliancePost(h, `${clientId}/approve`);
      expect([refused.status, refused.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED')]);
    });

    test('a resubmission with the same name and another date as far from the listed one keeps the dismissal (the whitelist holds)', async () => {
      const created = await createIndividual(h, await individual(h, 'Dmitri', 'Sokolov', '1990-01-01'));
      const clientId: string = created.body.id;
      const [hit] = (await screened(h, clientId)).hits;
      await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'Another person',
      });
      await compliancePost(h, `${clientId}/request-resubmission`).send({ reason: 'New passport' });
      const resubmitted = await resubmitIndividual(
        h,
        clientId,
        await individual(h, 'Dmitri', 'Sokolov', '1985-05-05'),
      );
      expect(resubmitted.status).toBe(201);
      const again = await screened(h, clientId);
      expect(again.hits.map((each) => [each.id, each.resolution?.decision])).toEqual([
        [hit?.id, 'DISMISSED'],
      ]);
      expect((await compliancePost(h, `${clientId}/approve`)).status).toBe(200);
    });

    test('confirmed-hit-dropped-by-a-resubmission: a client confirmed as the listed person resubmitting under a name the list misses stays refused until a reviewer decides again', async () => {
      const created = await createIndividual(h, await individual(h, 'Dmitri', 'Sokolov', '1961-04-12'));
      const clientId: string = created.body.id;
      const [hit] = (await screened(h, clientId)).hits;
      const confirmed = await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'CONFIRMED',
        reason: 'The listed person: name and date of birth',
      });
      expect(confirmed.status).toBe(200);
      expect(
        (await compliancePost(h, `${clientId}/request-resubmission`).send({ reason: 'Explain' })).status,
      ).toBe(200);
      // The same person, an initial and another year: the list alone no longer finds him.
      const resubmitted = await resubmitIndividual(
        h,
        clientId,
        await individual(h, 'D.', 'Sokolov', '1990-01-01'),
      );
      expect(resubmitted.status).toBe(201);
      const again = await screened(h, clientId);
      expect(again.status).toBe('POSSIBLE_MATCH');
      expect(again.hits.map((each) => [each.id, each.resolution?.decision])).toEqual([
        [hit?.id, 'CONFIRMED'],
      ]);
      const refused = await compliancePost(h, `${clientId}/approve`);
      expect([refused.status, refused.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED')]);
      // A reviewer's new decision (the listed person divested, say) is what lets it go on.
      const dismissed = await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'Reviewed again after the resubmission',
      });
      expect(dismissed.status).toBe(200);
      expect((await compliancePost(h, `${clientId}/approve`)).status).toBe(200);
    });

    test('erasure with a date of birth: after DELETE and redaction, jobs queued before it leave the name, date and marker in no store and no webhook', async () => {
      const marker = `canary-${crypto.randomUUID()}`;
      const dateOfBirth = '1917-03-08';
      const createKey = crypto.randomUUID();
      const endpoint = await h.api
        .post('/manager/v1/webhook-endpoints')
        .set('SERVICE_API_KEY', manager())
        .send({ url: 'https://hooks.example.com/erasure' });
      expect(endpoint.status).toBe(201);
      const payload = await individual(h, 'Dmitri', 'Sokolov', dateOfBirth);
      payload.profile.address = `1 ${marker} street`;
      const created = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', manager())
        .set('Idempotency-Key', createKey)
        .send(payload);
      expect(created.status).toBe(201);
      const clientId: string = created.body.id;
      const [hit] = (await screened(h, clientId)).hits;
      expect(hit?.explanation?.birthDate).toMatchObject({ subject: dateOfBirth, outcome: 'MISMATCH' });
      await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: `Born ${dateOfBirth} at ${marker}`,
      });
      // Queued before the erasure, run after it: a list change's monitoring and the events' deliveries.
      (
        await h.kit.screening.listChanged({
          version: `v-${crypto.randomUUID()}`,
          changedTargets: [{ id: 'ev-sokolov', names: ['Dmitri Sokolov'] }],
        })
      )._unsafeUnwrap();
      expect(h.adapters.testing.listWebhookJobs().length).toBeGreaterThan(0);
      // The date and the marker are this client's alone; the listed name is other clients' of this
      // harness too, so it is looked for only in what answers about this client.
      const leaks = (text: string) => [dateOfBirth, marker].filter((value) => text.includes(value));
      const nameLeaks = (text: string) => [...leaks(text), ...(text.includes('Sokolov') ? ['Sokolov'] : [])];
      expect(h.adapters.testing.readScreenedNames(clientId)).toContainEqual(
        expect.objectContaining({ name: 'Dmitri Sokolov', birthDate: dateOfBirth }),
      );
      expect(leaks(h.adapters.testing.dump())).toEqual([dateOfBirth, marker]);

      expect(
        (await h.api.delete(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', manager())).status,
      ).toBe(200);
      expect((await compliancePost(h, `${clientId}/redact`)).status).toBe(200);
      const sentBefore = h.adapters.testing.sentWebhooks().length;
      await h.adapters.testing.screenDueClients(h.kit);
      await h.adapters.testing.deliverDueWebhooks(h.kit);
      const sentAfter = h.adapters.testing.sentWebhooks().slice(sentBefore);
      expect(sentAfter.length).toBeGreaterThan(0);
      expect(leaks(JSON.stringify(sentAfter))).toEqual([]);
      expect(h.adapters.testing.readScreenedNames(clientId)).toEqual([]);
      const answers = await Promise.all([
        h.api.get(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', manager()),
        h.api.get('/manager/v1/events').query({ clientId }).set('SERVICE_API_KEY', manager()),
        h.api.get(`/compliance/v1/clients/${clientId}/audit`).set('SERVICE_API_KEY', h.keys.compliance),
        h.api
          .get(`/manager/v1/webhook-endpoints/${endpoint.body.id}/deliveries`)
          .set('SERVICE_API_KEY', manager()),
        h.api
          .post('/manager/v1/clients/individuals')
          .set('SERVICE_API_KEY', manager())
          .set('Idempotency-Key', createKey)
          .send(payload),
      ]);
      for (const [at, answer] of answers.entries())
        expect(nameLeaks(answer.text), `answer ${at}`).toEqual([]);
      expect(leaks(h.adapters.testing.dump())).toEqual([]);
    });

    test('leap days are dates of birth on leap years only', async () => {
      for (const [dateOfBirth, status] of [
        ['2000-02-29', 201],
        ['1904-02-29', 201],
        ['1900-02-29', 400],
        ['2023-02-29', 400],
      ] as const) {
        const created = await createIndividual(h, await individual(h, 'Jean', 'Durand', dateOfBirth));
        expect(created.status, dateOfBirth).toBe(status);
      }
    });
  });

  describe('screening evidence on a list change: a dismissal made on a birth date holds only while the dates say as little', () => {
    let h: Harness;
    let list: SanctionsList;
    const versionOf = async (sokolovBorn: string) =>
      (
        await loadSanctionsList(
          Readable.from([
            targetsCsv.replace(
              'ev-sokolov,Person,Dmitri Sokolov,,1961-04-12',
              `ev-sokolov,Person,Dmitri Sokolov,,${sokolovBorn}`,
            ),
          ]),
        )
      )._unsafeUnwrap();
    beforeAll(async () => {
      list = await versionOf('1961-04-12');
      h = await startHarness({ ports: { screening: createListScreeningProvider({ list: () => list }) } });
    });
    afterAll(() => h.close());

    test('dismissal-kept-when-the-list-corrects-the-date: a list version giving the client’s year reopens the finding; one as far off keeps it', async () => {
      const created = await createIndividual(h, await individual(h, 'Dmitri', 'Sokolov', '1990-01-01'));
      const clientId: string = created.body.id;
      const [hit] = (await screened(h, clientId)).hits;
      await compliancePost(h, `${clientId}/screening-hits/${hit?.id}/resolve`).send({
        decision: 'DISMISSED',
        reason: 'Born 1990, not 1961',
      });
      const change = async (version: string, born: string) => {
        list = await versionOf(born);
        (
          await h.kit.screening.listChanged({
            version,
            changedTargets: [{ id: 'ev-sokolov', names: ['Dmitri Sokolov'] }],
          })
        )._unsafeUnwrap();
        return screened(h, clientId);
      };
      // Another year as far from the client's: the reviewer's reason still holds.
      const farOff = await change('v-far-off', '1958-01-01');
      expect(farOff.hits.map((each) => each.resolution?.decision)).toEqual(['DISMISSED']);
      // The list now gives the client's own year: a finding to review again.
      const corrected = await change('v-corrected', '1990-01-01');
      expect(corrected.status).toBe('POSSIBLE_MATCH');
      expect(corrected.hits.filter((each) => each.resolution === null)).toEqual([
        expect.objectContaining({
          targetId: 'ev-sokolov',
          explanation: expect.objectContaining({ birthDate: expect.objectContaining({ outcome: 'MATCH' }) }),
        }),
      ]);
      const refused = await compliancePost(h, `${clientId}/approve`);
      expect([refused.status, refused.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED')]);
    });
  });
};
