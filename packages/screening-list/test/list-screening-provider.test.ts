import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { demoIdentities, exampleEntityPayload } from '@onboarding-kit/core';
import { createMemoryKit } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import {
  createListScreeningProvider,
  listVersionChanges,
  loadSanctionsList,
  type SanctionsList,
} from '../src/index.js';

const fixture = fileURLToPath(new URL('../fixtures/targets.simple.csv', import.meta.url));
const fixtureList = async () => (await loadSanctionsList(createReadStream(fixture)))._unsafeUnwrap();

/** A list naming `Andrey Borisovich LOVBA`, born `born`, among a few hundred others (so that words weigh as on a list). */
const lovbaList = async (born: string) => {
  const rows = [
    'id,schema,name,aliases,birth_date,countries,dataset',
    `p-lovba,Person,Andrey Borisovich LOVBA,,${born},ru,Test List`,
  ];
  for (let at = 0; at < 300; at += 1) rows.push(`other-${at},Person,Person${at} Other${at},,1970,,Test List`);
  return (await loadSanctionsList(Readable.from([rows.join('\n')])))._unsafeUnwrap();
};

/** An entity whose directors are these people. */
const withDirectors = (...directors: { name: string; dateOfBirth?: string }[]) => {
  const payload = exampleEntityPayload();
  const [first] = payload.companyDirectorsAndUbos.directors;
  if (first === undefined) expect.fail('a director');
  return {
    ...payload,
    companyDirectorsAndUbos: {
      ...payload.companyDirectorsAndUbos,
      directors: directors.map((director) => ({ ...first, ...director })),
    },
  };
};

describe('createListScreeningProvider', () => {
  it('answers a match per listed target, on the subject field, scored 0..1, persons against persons', async () => {
    const provider = createListScreeningProvider({ list: await fixtureList() });
    const matches = (
      await provider.screen([
        {
          field: 'companyDirectorsAndUbos.directors[0]',
          name: 'SOKOLOV Dmitriy',
          kind: 'PERSON',
          country: 'DE',
        },
        { field: 'company', name: 'Northwind Maritime Trading SA', kind: 'COMPANY' },
        { field: 'representatives[0]', name: 'Camille Durand', kind: 'PERSON' },
        // A company named like a listed person (and vessel) is not a match.
        { field: 'companyDirectorsAndUbos.ubos[1]', name: 'Dmitri Sokolov', kind: 'COMPANY' },
      ])
    )._unsafeUnwrap();
    expect(matches).toEqual([
      {
        field: 'companyDirectorsAndUbos.directors[0]',
        name: 'SOKOLOV Dmitriy',
        listName: 'Fixture Sanctions List A',
        matchedName: expect.any(String),
        score: expect.any(Number),
        targetId: 'fx-person-sokolov',
        explanation: expect.objectContaining({
          summary: expect.any(String),
          tokens: expect.arrayContaining([
            expect.objectContaining({ subject: 'sokolov', listed: 'sokolov' }),
          ]),
          // The client's country beside the entry's: evidence for the reviewer.
          country: { subject: 'DE', listed: ['ru'], outcome: 'MISMATCH' },
        }),
        entry: {
          name: 'Dmitri Ivanovich SOKOLOV',
          aliases: ['Dmitriy Sokolov', 'Дмитрий Соколов', 'Dmitri Sokolov'],
          datasets: ['Fixture Sanctions List A', 'Fixture Sanctions List B'],
          countries: ['ru'],
          birthDates: ['1961-04-12'],
          schema: 'Person',
        },
      },
      {
        field: 'company',
        name: 'Northwind Maritime Trading SA',
        listName: expect.any(String),
        matchedName: 'Northwind Maritime Trading S.A.',
        score: expect.any(Number),
        targetId: 'fx-company-northwind',
        explanation: expect.objectContaining({ summary: expect.any(String) }),
        entry: expect.objectContaining({ countries: ['pa'], birthDates: [], schema: 'Company' }),
      },
    ]);
    for (const match of matches) {
      expect(match.score).toBeGreaterThanOrEqual(0.9);
      expect(match.score).toBeLessThanOrEqual(1);
    }
  });

  it('matches a subject that may be a person or a company (a bank account owner) against both', async () => {
    const provider = createListScreeningProvider({ list: await fixtureList() });
    const owner = (name: string) => ({
      field: 'bankAccounts[0].thirdPartyBankAccountOwnerName',
      name,
      kind: 'PERSON_OR_COMPANY' as const,
    });
    const matches = (
      await provider.screen([
        owner('Dmitri Sokolov'),
        owner('Northwind Maritime Trading SA'),
        owner('Camille Durand'),
      ])
    )._unsafeUnwrap();
    expect(matches.map(({ name, targetId }) => [name, targetId])).toEqual([
      ['Dmitri Sokolov', 'fx-person-sokolov'],
      ['Northwind Maritime Trading SA', 'fx-company-northwind'],
    ]);
  });

  it("screens a kit's create: a listed UBO is a hit on its payload field once the job ran", async () => {
    const kit = createMemoryKit({ screening: createListScreeningProvider({ list: await fixtureList() }) });
    const payload = exampleEntityPayload();
    const [natural, legal] = payload.companyDirectorsAndUbos.ubos;
    if (natural === undefined || legal === undefined) expect.fail('two UBOs');
    const listedUbo = {
      ...payload,
      companyDirectorsAndUbos: {
        ...payload.companyDirectorsAndUbos,
        ubos: [natural, { ...natural, name: 'Jose Luis Martinez Garcia' }, legal],
      },
    };
    const manager = demoIdentities.managerA.principal;
    const created = (await kit.clients.createEntity(manager, listedUbo))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    const { screening } = (await kit.clients.get(manager, created.id))._unsafeUnwrap();
    expect(screening?.status).toBe('POSSIBLE_MATCH');
    expect(screening?.hits).toEqual([
      expect.objectContaining({
        field: 'companyDirectorsAndUbos.ubos[1]',
        name: 'Jose Luis Martinez Garcia',
        matchedName: expect.stringMatching(/Mart[ií]nez/i),
        targetId: 'fx-person-martinez',
        explanation: expect.objectContaining({ summary: expect.any(String) }),
        entry: expect.objectContaining({ name: 'José Luis MARTÍNEZ GARCÍA', countries: ['es', 've'] }),
        resolution: null,
      }),
    ]);
  });

  it("screens each person with the payload's date of birth: a namesake born in another year is spared, the listed person and an exact name are not", async () => {
    const kit = createMemoryKit({
      screening: createListScreeningProvider({ list: await lovbaList('1961-04-12') }),
    });
    const manager = demoIdentities.managerA.principal;
    const created = (
      await kit.clients.createEntity(
        manager,
        withDirectors(
          { name: 'Andrey Lovba', dateOfBirth: '1985-07-01' },
          { name: 'Andrey Lovba', dateOfBirth: '1962-01-20' },
          { name: 'Andrey Borisovich Lovba', dateOfBirth: '1985-07-01' },
          { name: 'Andrey Lovba' },
        ),
      )
    )._unsafeUnwrap();
    await kit.testing.screenDueClients();
    const { screening, companyDirectorsAndUbos } = (
      await kit.clients.get(manager, created.id)
    )._unsafeUnwrap();
    expect(companyDirectorsAndUbos?.directors.map((director) => director.dateOfBirth)).toEqual([
      '1985-07-01',
      '1962-01-20',
      '1985-07-01',
      null,
    ]);
    const evidence = (field: string) =>
      screening?.hits.find((hit) => hit.field === field)?.explanation?.birthDate ?? null;
    expect(screening?.hits.map((hit) => hit.field)).toEqual([
      'companyDirectorsAndUbos.directors[1]',
      'companyDirectorsAndUbos.directors[2]',
      'companyDirectorsAndUbos.directors[3]',
    ]);
    // A year off is a slip of data entry: the same person as far as the dates say.
    expect(evidence('companyDirectorsAndUbos.directors[1]')).toEqual({
      subject: '1962-01-20',
      listed: ['1961-04-12'],
      outcome: 'MATCH',
    });
    // An exact name is never hidden; the reviewer sees the dates disagree.
    expect(evidence('companyDirectorsAndUbos.directors[2]')?.outcome).toBe('MISMATCH');
    expect(evidence('companyDirectorsAndUbos.directors[3]')).toBeNull();
  });

  it('monitoring screens a stored name with its date of birth: a corrected listed birth year makes the hit, for the client born then only', async () => {
    let version: SanctionsList = await lovbaList('1961-04-12');
    const kit = createMemoryKit({ screening: createListScreeningProvider({ list: () => version }) });
    const manager = demoIdentities.managerA.principal;
    const bornThen = (
      await kit.clients.createEntity(
        manager,
        withDirectors({ name: 'Andrey Lovba', dateOfBirth: '1985-07-01' }),
      )
    )._unsafeUnwrap();
    const bornEarlier = (
      await kit.clients.createEntity(
        manager,
        withDirectors({ name: 'Andrey Lovba', dateOfBirth: '1950-03-03' }),
      )
    )._unsafeUnwrap();
    await kit.testing.screenDueClients();
    const status = async (clientId: string) =>
      (await kit.clients.get(manager, clientId))._unsafeUnwrap().screening?.status;
    expect(await status(bornThen.id)).toBe('CLEAR');
    expect(await status(bornEarlier.id)).toBe('CLEAR');

    const previous = version;
    version = await lovbaList('1985-07-01');
    const changedTargets = listVersionChanges(previous, version);
    expect(changedTargets).toEqual([{ id: 'p-lovba', names: ['Andrey Borisovich LOVBA'] }]);
    (await kit.screening.listChanged({ version: 'v2', changedTargets }))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    expect(await status(bornThen.id)).toBe('POSSIBLE_MATCH');
    const [hit] = (await kit.clients.get(manager, bornThen.id))._unsafeUnwrap().screening?.hits ?? [];
    expect(hit?.explanation?.birthDate).toEqual({
      subject: '1985-07-01',
      listed: ['1985-07-01'],
      outcome: 'MATCH',
    });
    // Without its stored date, this name would be a hit too (the name alone scores above the threshold).
    expect(await status(bornEarlier.id)).toBe('CLEAR');
  });

  it('matches one subject per turn of the event loop: the host process runs its other work between them', async () => {
    const fixture = await fixtureList();
    const order: string[] = [];
    const list = {
      size: fixture.size,
      match: (...args: Parameters<typeof fixture.match>) => {
        order.push('match');
        return fixture.match(...args);
      },
      targets: () => fixture.targets(),
    };
    let screening = true;
    const otherWork = () => {
      order.push('other');
      if (screening) setImmediate(otherWork);
    };
    setImmediate(otherWork);
    const subjects = ['SOKOLOV Dmitriy', 'Camille Durand', 'Hans Mueller', 'Kim Chol-Su'].map((name, i) => ({
      field: `representatives[${i}]`,
      name,
      kind: 'PERSON' as const,
    }));
    const matches = (await createListScreeningProvider({ list }).screen(subjects))._unsafeUnwrap();
    screening = false;
    expect(matches.map(({ name }) => name)).toEqual(['SOKOLOV Dmitriy', 'Hans Mueller', 'Kim Chol-Su']);
    expect(order.filter((step) => step === 'match')).toHaveLength(4);
    // Never two subjects matched in one turn.
    expect(order.join(' ')).not.toContain('match match');
  });
});
