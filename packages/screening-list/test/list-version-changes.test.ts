import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createListScreeningProvider, listVersionChanges, loadSanctionsList } from '../src/index.js';

const HEADER = 'id,schema,name,aliases,dataset';
const listOf = async (...rows: string[]) =>
  (await loadSanctionsList(Readable.from([[HEADER, ...rows].join('\n')])))._unsafeUnwrap();

describe('listVersionChanges', () => {
  it('answers the targets added, renamed or given other aliases, with their new names, and no other', async () => {
    const previous = await listOf(
      'p-same,Person,Ivan PETROV,Ivan Petrov;Иван Петров,List A',
      'p-renamed,Person,Olga SMIRNOVA,,List A',
      'p-alias,Person,Anna KOVAL,Hanna Koval,List A',
      'p-other-data,Person,Petr VOLKOV,,List A',
      'p-removed,Person,Igor LEBEDEV,,List A',
      'c-schema,Organization,Volga Trading,,List A',
      'v-vessel,Vessel,SEA STAR,,List A',
    );
    const next = await listOf(
      // The same names in another order: not a change.
      'p-same,Person,Ivan PETROV,Иван Петров;Ivan Petrov,List A',
      'p-renamed,Person,Olga SMIRNOVA-PAVLOVA,,List A',
      'p-alias,Person,Anna KOVAL,Hanna Koval;Anna Kowal,List A',
      // Only its datasets changed: no name can match anew.
      'p-other-data,Person,Petr VOLKOV,,List A;List B',
      'c-schema,Company,Volga Trading,,List A',
      'p-added,Person,Nikolai ORLOV,Nikolay Orlov,List B',
      // Vessels never match a client.
      'v-added,Vessel,NORTH STAR,,List B',
    );
    expect(listVersionChanges(previous, next)).toEqual([
      { id: 'p-renamed', names: ['Olga SMIRNOVA-PAVLOVA'] },
      { id: 'p-alias', names: ['Anna KOVAL', 'Hanna Koval', 'Anna Kowal'] },
      { id: 'c-schema', names: ['Volga Trading'] },
      { id: 'p-added', names: ['Nikolai ORLOV', 'Nikolay Orlov'] },
    ]);
  });

  it('answers a target whose birth dates or countries changed: both weigh in the score', async () => {
    const header = 'id,schema,name,aliases,birth_date,countries,dataset';
    const versionOf = async (...rows: string[]) =>
      (await loadSanctionsList(Readable.from([[header, ...rows].join('\n')])))._unsafeUnwrap();
    const previous = await versionOf(
      'p-born,Person,Andrey Borisovich LOVBA,,1961-04-12,ru,List A',
      'p-moved,Person,Ivan PETROV,,1970,ru,List A',
      'p-same,Person,Olga SMIRNOVA,,1955;1956,ru;by,List A',
    );
    const next = await versionOf(
      'p-born,Person,Andrey Borisovich LOVBA,,1985-07-01,ru,List A',
      'p-moved,Person,Ivan PETROV,,1970,ru;ua,List A',
      // The same values in another order: not a change.
      'p-same,Person,Olga SMIRNOVA,,1956;1955,by;ru,List A',
    );
    expect(listVersionChanges(previous, next)).toEqual([
      { id: 'p-born', names: ['Andrey Borisovich LOVBA'] },
      { id: 'p-moved', names: ['Ivan PETROV'] },
    ]);
  });

  it('answers every person and organization of a first version', async () => {
    const first = await listOf('p-1,Person,Ivan PETROV,,List A', 'v-1,Vessel,SEA STAR,,List A');
    expect(listVersionChanges(null, first)).toEqual([{ id: 'p-1', names: ['Ivan PETROV'] }]);
  });
});

describe('the list provider, scoped to targets', () => {
  it('matches a subject against the named targets only, with the scores of a full screening', async () => {
    const list = await listOf(
      'p-1,Person,Ivan PETROV,,List A',
      'p-2,Person,Ivan Petrovich PETROV,,List A',
      'p-3,Person,Olga SMIRNOVA,,List A',
    );
    const provider = createListScreeningProvider({ list });
    const subject = { field: 'profile', name: 'Ivan Petrov', kind: 'PERSON' } as const;
    const full = (await provider.screen([subject]))._unsafeUnwrap();
    expect(full.map((match) => match.targetId).sort()).toEqual(['p-1', 'p-2']);

    const scoped = (
      await provider.screen([subject], { targetIds: ['p-2', 'p-3', 'unknown'] })
    )._unsafeUnwrap();
    expect(scoped).toEqual(full.filter((match) => match.targetId === 'p-2'));
    expect((await provider.screen([subject], { targetIds: [] }))._unsafeUnwrap()).toEqual([]);
  });
});
