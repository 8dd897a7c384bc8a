import { describe, expect, it } from 'vitest';
import { createListScreeningProvider, createLiveSanctionsList, loadSanctionsList } from '../src/index.js';

const header = 'id,schema,name,aliases,dataset\n';
const file = (...rows: string[]) => [header, ...rows.map((row) => `${row}\n`)];
async function* rows(lines: readonly string[]) {
  for (const line of lines) yield line;
}
/** A file that yields its header, then waits for `release` before the rest: a load still under way. */
const heldBack = (lines: readonly string[]) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* held() {
    yield lines[0] as string;
    await released;
    for (const line of lines.slice(1)) yield line;
  }
  return { input: held(), release };
};
const person = (name: string) => ({ kind: 'person' as const, name });

const version1 = file('v1-sokolov,Person,Dmitri SOKOLOV,,List v1');
const version2 = file('v2-lavrov,Person,Sergei LAVROV,,List v2');
const version3 = file('v3-putin,Person,Vladimir PUTIN,,List v3');

describe('createLiveSanctionsList', () => {
  it('serves the version in use while a new one loads, then swaps it in at once', async () => {
    const live = createLiveSanctionsList((await loadSanctionsList(rows(version1)))._unsafeUnwrap());
    const next = heldBack(version2);
    const reloading = live.reload(next.input);
    // The new version is still loading: the old one answers.
    expect(live.match(person('Dmitri Sokolov')).map((match) => match.targetId)).toEqual(['v1-sokolov']);
    expect(live.match(person('Sergei Lavrov'))).toEqual([]);
    next.release();
    expect((await reloading).isOk()).toBe(true);
    expect(live.match(person('Dmitri Sokolov'))).toEqual([]);
    expect(live.match(person('Sergei Lavrov')).map((match) => match.targetId)).toEqual(['v2-lavrov']);
    expect([...live.targets()].map((target) => [target.id, target.schema, target.name])).toEqual([
      ['v2-lavrov', 'Person', 'Sergei LAVROV'],
    ]);
    expect(live.size).toBe(1);
  });

  it('keeps the version in use when the new file cannot be read', async () => {
    const live = createLiveSanctionsList((await loadSanctionsList(rows(version1)))._unsafeUnwrap());
    const failed = await live.reload(rows(['id,schema,name\n', 'x,Person,Nobody\n']));
    expect(failed._unsafeUnwrapErr()).toMatchObject({ type: 'SanctionsListUnreadable' });
    expect(live.match(person('Dmitri Sokolov')).map((match) => match.targetId)).toEqual(['v1-sokolov']);
  });

  it('lets the reload started last win, though an older one finishes after it', async () => {
    const live = createLiveSanctionsList((await loadSanctionsList(rows(version1)))._unsafeUnwrap());
    const older = heldBack(version2);
    const olderReload = live.reload(older.input);
    await live.reload(rows(version3));
    older.release();
    await olderReload;
    expect(live.match(person('Vladimir Putin')).map((match) => match.targetId)).toEqual(['v3-putin']);
    expect(live.match(person('Sergei Lavrov'))).toEqual([]);
  });

  it('screens each client against one version, though the list is swapped during its screening', async () => {
    const live = createLiveSanctionsList((await loadSanctionsList(rows(version1)))._unsafeUnwrap());
    const provider = createListScreeningProvider({ list: live });
    const screening = provider.screen([
      { field: 'representatives[0]', name: 'Sergei Lavrov', kind: 'PERSON' },
      { field: 'representatives[1]', name: 'Dmitri Sokolov', kind: 'PERSON' },
    ]);
    // The provider matches one name per turn of the event loop; the swap lands between them.
    await live.reload(rows(version2));
    const matches = (await screening)._unsafeUnwrap();
    expect(matches.map((match) => match.targetId)).toEqual(['v1-sokolov']);
    const after = (
      await provider.screen([{ field: 'profile', name: 'Sergei Lavrov', kind: 'PERSON' }])
    )._unsafeUnwrap();
    expect(after.map((match) => match.targetId)).toEqual(['v2-lavrov']);
  });
});
