import { Readable } from 'node:stream';
import { exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { createListScreeningProvider, loadSanctionsList } from '@onboarding-kit/screening-list';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness, uploadFiles } from '../support/http-harness.js';

const LISTED_OWNER = 'Viktor Petrov';
const LISTED_EMPLOYER = 'Northwind Maritime Trading SA';

/** Flags the names it lists exactly (the list's own matching is the second describe's). */
const exactList = (listed: readonly string[]): ScreeningProvider => ({
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
});

/** A list in the OpenSanctions targets.simple.csv format naming Dmitri Sokolov, and others beside him. */
const targetsCsv = [
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change',
  'cov-sokolov,Person,Dmitri Sokolov,,1961-04-12,ru,,,,,,,Coverage List,,,',
  'cov-petrov,Person,Viktor Petrov,,1970-01-01,ru,,,,,,,Coverage List,,,',
  'cov-ivanova,Person,Anna Ivanova,,1980-02-02,ru,,,,,,,Coverage List,,,',
  'cov-northwind,Company,Northwind Maritime Trading SA,,,pa,,,,,,,Coverage List,,,',
  'cov-kim,Person,Kim Chol Su,,,kp,,,,,,,Coverage List,,,',
  'cov-lovba,Person,Andrey Borisovich Lovba,,1961-04-12;1962,ru,,,,,,,Coverage List,,,',
].join('\n');

type Screening = {
  status: string;
  hits: {
    id: string;
    field: string;
    name: string;
    score: number;
    explanation: { summary: string; birthDate: unknown } | null;
  }[];
};

// biome-ignore lint/suspicious/noExplicitAny: payloads are changed field by field, as a caller would
type LoosePayload = Record<string, any>;

/** The example individual with a THIRD_PARTY bank account owned by `owner`. */
const withThirdPartyAccount = (payload: LoosePayload, owner: string): LoosePayload => {
  payload.bankAccounts.push({
    ...payload.bankAccounts[0],
    label: "The owner's account",
    type: 'THIRD_PARTY',
    thirdPartyBankAccountOwnerName: owner,
    thirdPartyBankAccountOwnerAddress: '1 Nevsky Prospekt',
    thirdPartyBankAccountOwnerCity: 'Saint Petersburg',
    thirdPartyBankAccountOwnerPostalCode: '191186',
    thirdPartyBankAccountOwnerCountryCode: 'RU',
  });
  return payload;
};

const screeningHttp = (h: Harness) => {
  const createIndividual = async (payload: LoosePayload) => {
    const passport = `${crypto.randomUUID()}.pdf`;
    await uploadFiles(h, h.keys.managerA, { [passport]: 'a passport' });
    payload.profile.idDocuments = [passport];
    return h.api
      .post('/manager/v1/clients/individuals')
      .set('SERVICE_API_KEY', h.keys.managerA)
      .send(payload);
  };
  const createEntity = (payload: LoosePayload) =>
    h.api.post('/manager/v1/clients/entities').set('SERVICE_API_KEY', h.keys.managerA).send(payload);
  /** Runs the screening job, then reads the client's screening as its manager sees it. */
  const screened = async (clientId: string): Promise<Screening> => {
    await h.adapters.testing.screenDueClients(h.kit);
    const client = await h.api.get(`/manager/v1/clients/${clientId}`).set('SERVICE_API_KEY', h.keys.managerA);
    return client.body.screening;
  };
  const approve = (clientId: string) =>
    h.api.post(`/compliance/v1/clients/${clientId}/approve`).set('SERVICE_API_KEY', h.keys.compliance);
  return { createIndividual, createEntity, screened, approve };
};

/** Every name a client brings is screened, and every name holds a letter (decisions §7, §12). */
export const describeScreeningCoverage = () => {
  describe('screening coverage: the account owner and the employer are screened too', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ ports: { screening: exactList([LISTED_OWNER, LISTED_EMPLOYER]) } });
    });
    afterAll(() => h.close());

    test("a listed third-party account owner is a hit on the owner's field, and holds the approval back", async () => {
      const { createIndividual, screened, approve } = screeningHttp(h);
      const created = await createIndividual(withThirdPartyAccount(exampleIndividualPayload(), LISTED_OWNER));
      expect(created.status).toBe(201);
      const screening = await screened(created.body.id);
      expect(screening.status).toBe('POSSIBLE_MATCH');
      expect(screening.hits.map(({ field, name }) => ({ field, name }))).toEqual([
        { field: 'bankAccounts[1].thirdPartyBankAccountOwnerName', name: LISTED_OWNER },
      ]);
      const refused = await approve(created.body.id);
      expect([refused.status, refused.body]).toEqual([409, errorBody('SCREENING_UNRESOLVED')]);
    });

    test("an entity's listed third-party account owner is a hit too", async () => {
      const { createEntity, screened, approve } = screeningHttp(h);
      const created = await createEntity(withThirdPartyAccount(exampleEntityPayload(), LISTED_OWNER));
      expect(created.status).toBe(201);
      const screening = await screened(created.body.id);
      expect(screening.hits.map(({ field }) => field)).toEqual([
        'bankAccounts[1].thirdPartyBankAccountOwnerName',
      ]);
      expect((await approve(created.body.id)).status).toBe(409);
    });

    test("a listed employer is a hit on the profile's companyName, and holds the approval back", async () => {
      const { createIndividual, screened, approve } = screeningHttp(h);
      const payload: LoosePayload = exampleIndividualPayload();
      payload.profile.companyName = LISTED_EMPLOYER;
      const created = await createIndividual(payload);
      expect(created.status).toBe(201);
      const screening = await screened(created.body.id);
      expect(screening.status).toBe('POSSIBLE_MATCH');
      expect(screening.hits.map(({ field, name }) => ({ field, name }))).toEqual([
        { field: 'profile.companyName', name: LISTED_EMPLOYER },
      ]);
      const refused = await approve(created.body.id);
      expect([refused.status, refused.body.code]).toEqual([409, 'SCREENING_UNRESOLVED']);
    });

    test('clean owner and employer names leave the client CLEAR and approvable', async () => {
      const { createIndividual, screened, approve } = screeningHttp(h);
      const created = await createIndividual(
        withThirdPartyAccount(exampleIndividualPayload(), 'Jean Durand'),
      );
      expect((await screened(created.body.id)).status).toBe('CLEAR');
      expect((await approve(created.body.id)).status).toBe(200);
    });

    test('a name without a letter is a 400 at its field, for every name of both payloads, and nothing is created', async () => {
      const { createIndividual, createEntity } = screeningHttp(h);
      const before = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
      for (const name of ['.', '-', '😀', '\u200F', '123', '\u200B\u00AD']) {
        const individual = withThirdPartyAccount(exampleIndividualPayload(), name);
        individual.profile.firstName = name;
        individual.profile.lastName = name;
        individual.profile.companyName = name;
        const refusedIndividual = await createIndividual(individual);
        expect([refusedIndividual.status, refusedIndividual.body], JSON.stringify(name)).toEqual([
          400,
          errorBody('VALIDATION_FAILED', expect.any(String), {
            'profile.firstName': ['Must contain a letter'],
            'profile.lastName': ['Must contain a letter'],
            'profile.companyName': ['Must contain a letter'],
            'bankAccounts[1].thirdPartyBankAccountOwnerName': ['Must contain a letter'],
          }),
        ]);

        const entity = withThirdPartyAccount(exampleEntityPayload(), name);
        entity.company.name = name;
        entity.representatives[0].firstName = name;
        entity.representatives[0].lastName = name;
        entity.companyDirectorsAndUbos.directors[0].name = name;
        entity.companyDirectorsAndUbos.ubos[0].name = name;
        entity.companyDirectorsAndUbos.ubos[1].name = name;
        const refusedEntity = await createEntity(entity);
        expect([refusedEntity.status, refusedEntity.body], JSON.stringify(name)).toEqual([
          400,
          errorBody('VALIDATION_FAILED', expect.any(String), {
            'company.name': ['Must contain a letter'],
            'representatives[0].firstName': ['Must contain a letter'],
            'representatives[0].lastName': ['Must contain a letter'],
            'companyDirectorsAndUbos.directors[0].name': ['Must contain a letter'],
            'companyDirectorsAndUbos.ubos[0].name': ['Must contain a letter'],
            'companyDirectorsAndUbos.ubos[1].name': ['Must contain a letter'],
            'bankAccounts[1].thirdPartyBankAccountOwnerName': ['Must contain a letter'],
          }),
        ]);
      }
      const after = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
      expect(after.body.data).toHaveLength(before.body.data.length);
    });
  });

  describe('screening through the kit with the list provider: one character does not walk past it', () => {
    let h: Harness;
    beforeAll(async () => {
      const list = (await loadSanctionsList(Readable.from([targetsCsv])))._unsafeUnwrap();
      h = await startHarness({ ports: { screening: createListScreeningProvider({ list }) } });
    });
    afterAll(() => h.close());

    // [firstName, lastName] of a French client against a list naming Dmitri Sokolov (of Russia).
    const evasions: readonly [string, string][] = [
      ['Dmitri', 'Soko-lov'],
      ['Dmitri', 'So kolov'],
      ['Dmi-tri', 'Soko-lov'],
      ['ᴅᴍɪᴛʀɪ', 'ꜱᴏᴋᴏʟᴏᴠ'],
      ['Dmitri', 'ᏚokoIov'],
      // Unicode's look-alikes of Latin letters that are no Latin letter: digits, a Cyrillic word.
      ['Dmitri', 'S0k0l0v'],
      ['Dmitri', 'Ѕоко1оv'],
      ['DMITRI', 'ЅОКОӀОѴ'],
      // The listed name whole among given names added to it (four added hid it).
      ['Dmitri Pavel Andrei', 'Olga Boris Sokolov'],
    ];

    test('a listed name shown reversed by a bidi override is a 400 at its field, and nothing is created', async () => {
      const { createIndividual } = screeningHttp(h);
      const before = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
      const payload: LoosePayload = exampleIndividualPayload();
      payload.profile.firstName = 'Dmitri';
      // Shown as `Sokolov` to a reviewer; read `volokoS` by the screening.
      payload.profile.lastName = '\u202EvolokoS';
      const refused = await createIndividual(payload);
      expect([refused.status, refused.body]).toEqual([
        400,
        errorBody('VALIDATION_FAILED', expect.any(String), {
          'profile.lastName': [
            'Must not contain bidirectional embedding, override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
          ],
        }),
      ]);
      const after = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
      expect(after.body.data.map(({ id }: { id: string }) => id)).toEqual(
        before.body.data.map(({ id }: { id: string }) => id),
      );
    });

    test.each(evasions)(
      'the profile %s %s is a POSSIBLE_MATCH of Dmitri Sokolov, not approvable',
      async (first, last) => {
        const { createIndividual, screened, approve } = screeningHttp(h);
        const payload: LoosePayload = exampleIndividualPayload();
        payload.profile.firstName = first;
        payload.profile.lastName = last;
        const created = await createIndividual(payload);
        expect(created.status).toBe(201);
        const screening = await screened(created.body.id);
        expect(screening.status).toBe('POSSIBLE_MATCH');
        expect(screening.hits).toEqual([
          expect.objectContaining({
            field: 'profile',
            targetId: 'cov-sokolov',
            matchedName: 'Dmitri Sokolov',
          }),
        ]);
        expect((await approve(created.body.id)).status).toBe(409);
      },
    );

    test.each(evasions)(
      'the account owner and the director %s %s are each a POSSIBLE_MATCH too',
      async (first, last) => {
        const { createIndividual, createEntity, screened } = screeningHttp(h);
        const name = `${first} ${last}`;
        const individual = await createIndividual(withThirdPartyAccount(exampleIndividualPayload(), name));
        expect((await screened(individual.body.id)).hits).toEqual([
          expect.objectContaining({
            field: 'bankAccounts[1].thirdPartyBankAccountOwnerName',
            targetId: 'cov-sokolov',
          }),
        ]);
        const payload: LoosePayload = exampleEntityPayload();
        payload.companyDirectorsAndUbos.directors[0].name = name;
        const entity = await createEntity(payload);
        expect((await screened(entity.body.id)).hits).toEqual([
          expect.objectContaining({ field: 'companyDirectorsAndUbos.directors[0]', targetId: 'cov-sokolov' }),
        ]);
      },
    );

    test("a date of birth is screened with the name: another year spares a namesake, the hit's JSON shows the evidence, an exact name stays a hit", async () => {
      const { createIndividual, screened, approve } = screeningHttp(h);
      const client = async (first: string, last: string, dateOfBirth?: string) => {
        const payload: LoosePayload = exampleIndividualPayload();
        payload.profile.firstName = first;
        payload.profile.lastName = last;
        if (dateOfBirth !== undefined) payload.profile.dateOfBirth = dateOfBirth;
        const created = await createIndividual(payload);
        expect(created.status).toBe(201);
        expect(created.body.individualProfile.dateOfBirth).toBe(dateOfBirth ?? null);
        return { id: created.body.id as string, screening: await screened(created.body.id) };
      };
      // The listed person's given and family name, the patronymic left out: born in another year, a namesake.
      const namesake = await client('Andrey', 'Lovba', '1990-06-01');
      expect(namesake.screening.status).toBe('CLEAR');
      expect((await approve(namesake.id)).status).toBe(200);
      // Without a date, or born a year off the listed one, the name alone decides: a hit.
      for (const dateOfBirth of [undefined, '1963-01-15']) {
        const listed = await client('Andrey', 'Lovba', dateOfBirth);
        expect(listed.screening.status, dateOfBirth).toBe('POSSIBLE_MATCH');
        const [hit] = listed.screening.hits;
        expect(hit?.explanation?.birthDate).toEqual(
          dateOfBirth === undefined
            ? null
            : { subject: dateOfBirth, listed: ['1961-04-12', '1962'], outcome: 'MATCH' },
        );
      }
      // An exact name with another year is still a hit; the reviewer reads why its score is lower.
      const exact = await client('Dmitri', 'Sokolov', '1985-03-03');
      expect(exact.screening.status).toBe('POSSIBLE_MATCH');
      const [hit] = exact.screening.hits;
      expect(hit?.explanation?.birthDate).toEqual({
        subject: '1985-03-03',
        listed: ['1961-04-12'],
        outcome: 'MISMATCH',
      });
      expect(hit?.explanation?.summary).toContain('birth date 1985-03-03');
      expect(hit?.score).toBeLessThan(1);
      expect((await approve(exact.id)).status).toBe(409);
    });

    test('a date of birth that is no calendar date is a 400 at its field, on every person of both payloads', async () => {
      const { createIndividual, createEntity } = screeningHttp(h);
      const message = 'Must be a date as YYYY-MM-DD from 1900 on, such as 1984-03-21, or null';
      for (const bad of ['1961-02-30', '12/04/1961', '1961', '', '1899-12-31', 19610412]) {
        const individual: LoosePayload = exampleIndividualPayload();
        individual.profile.dateOfBirth = bad;
        const refused = await createIndividual(individual);
        expect([refused.status, refused.body.parameterErrors], JSON.stringify(bad)).toEqual([
          400,
          { 'profile.dateOfBirth': [typeof bad === 'number' ? 'Must be a string or null' : message] },
        ]);
        const entity: LoosePayload = exampleEntityPayload();
        entity.representatives[0].dateOfBirth = bad;
        entity.companyDirectorsAndUbos.directors[0].dateOfBirth = bad;
        entity.companyDirectorsAndUbos.ubos[0].dateOfBirth = bad;
        const refusedEntity = await createEntity(entity);
        const expected = [typeof bad === 'number' ? 'Must be a string or null' : message];
        expect([refusedEntity.status, refusedEntity.body.parameterErrors], JSON.stringify(bad)).toEqual([
          400,
          {
            'representatives[0].dateOfBirth': expected,
            'companyDirectorsAndUbos.directors[0].dateOfBirth': expected,
            'companyDirectorsAndUbos.ubos[0].dateOfBirth': expected,
          },
        ]);
      }
      // A legal UBO is no person: it has no date of birth to give.
      const legal: LoosePayload = exampleEntityPayload();
      legal.companyDirectorsAndUbos.ubos[1].dateOfBirth = '1961-04-12';
      const refused = await createEntity(legal);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.parameterErrors)).toEqual([
        'companyDirectorsAndUbos.ubos[1].dateOfBirth',
      ]);
    });

    test('the listed employer and owner are found by the list provider, the example client is CLEAR', async () => {
      const { createIndividual, screened, approve } = screeningHttp(h);
      const payload = withThirdPartyAccount(exampleIndividualPayload(), 'PETROV Viktor');
      payload.profile.companyName = 'Northwind Maritime Trading S.A.';
      const listed = await createIndividual(payload);
      expect((await screened(listed.body.id)).hits.map(({ field }) => field)).toEqual([
        'profile.companyName',
        'bankAccounts[1].thirdPartyBankAccountOwnerName',
      ]);
      expect((await approve(listed.body.id)).status).toBe(409);

      const clean = await createIndividual(exampleIndividualPayload());
      expect((await screened(clean.body.id)).status).toBe('CLEAR');
      expect((await approve(clean.body.id)).status).toBe(200);
    });
  });
};
