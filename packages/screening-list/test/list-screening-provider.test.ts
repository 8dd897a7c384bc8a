import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { demoIdentities, exampleEntityPayload } from '@onboarding-kit/core';
import { createMemoryKit } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import { createListScreeningProvider, loadSanctionsList } from '../src/index.js';

const fixture = fileURLToPath(new URL('../fixtures/targets.simple.csv', import.meta.url));
const fixtureList = async () => (await loadSanctionsList(createReadStream(fixture)))._unsafeUnwrap();

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
