import { describe, expect, it } from 'vitest';
import { KeyGroups } from '../src/key-groups.js';
import { StagedMap } from '../src/staged-map.js';

type Record = { readonly owner: string; readonly n: number };

describe("a StagedMap's key groups", () => {
  const setup = () => {
    const committed = new Map<string, Record>();
    const groups = new KeyGroups<string, Record>((record) => record.owner);
    const view = () => new StagedMap(committed, undefined, { byOwner: groups });
    return { committed, groups, view };
  };
  const ofOwner = (owner: string) => (record: Record) => record.owner === owner;

  it('follows commits: sets, moves between groups and deletes', () => {
    const { groups, view } = setup();
    const first = view();
    first.set('a', { owner: 'x', n: 1 });
    first.set('b', { owner: 'x', n: 2 });
    first.set('c', { owner: 'y', n: 3 });
    first.commit();
    expect([...groups.keysOf('x')]).toEqual(['a', 'b']);
    const second = view();
    second.set('b', { owner: 'y', n: 2 });
    second.delete('a');
    second.commit();
    expect([...groups.keysOf('x')]).toEqual([]);
    expect([...groups.keysOf('y')].sort()).toEqual(['b', 'c']);
  });

  it('counts and selects a group as the view sees it: staged writes in, uncommitted ones never indexed', () => {
    const { groups, view } = setup();
    const seed = view();
    seed.set('a', { owner: 'x', n: 1 });
    seed.set('b', { owner: 'x', n: 2 });
    seed.commit();
    const staging = view();
    staging.set('c', { owner: 'x', n: 3 });
    staging.delete('a');
    expect(staging.hasAtLeastWithin('byOwner', 'x', ofOwner('x'), 2)).toBe(true);
    expect(staging.hasAtLeastWithin('byOwner', 'x', ofOwner('x'), 3)).toBe(false);
    expect(
      staging.hasAtLeastWithin('byOwner', 'x', (record) => record.owner === 'x' && record.n > 2, 1),
    ).toBe(true);
    expect(
      staging
        .selectWithin('byOwner', 'x', ofOwner('x'))
        .map((record) => record.n)
        .sort(),
    ).toEqual([2, 3]);
    // Never committed (a rolled-back transaction): the committed view and the index are unchanged.
    expect(view().hasAtLeastWithin('byOwner', 'x', ofOwner('x'), 2)).toBe(true);
    expect(
      view().hasAtLeastWithin('byOwner', 'x', (record) => record.owner === 'x' && record.n === 3, 1),
    ).toBe(false);
    expect([...groups.keysOf('x')]).toEqual(['a', 'b']);
  });

  it("reads only the group's rows: the predicate runs for that group's committed keys and the staged values", () => {
    const { view } = setup();
    const seed = view();
    for (let n = 0; n < 1_000; n += 1) seed.set(`k${n}`, { owner: n % 100 === 0 ? 'rare' : 'common', n });
    seed.commit();
    const staging = view();
    staging.set('new', { owner: 'rare', n: 1_000 });
    let calls = 0;
    const selected = staging.selectWithin('byOwner', 'rare', (record) => {
      calls += 1;
      return record.owner === 'rare';
    });
    expect(selected.map((record) => record.n)).toEqual([
      0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000,
    ]);
    expect(calls).toBe(11);
  });

  it('keeps a group through one key, several and none again, in the order its keys joined', () => {
    const groups = new KeyGroups<number, Record>((record) => record.owner);
    const at = (owner: string, n: number) => ({ owner, n });
    groups.update(1, undefined, at('x', 1));
    expect([...groups.keysOf('x')]).toEqual([1]);
    groups.update(1, at('x', 1), at('x', 1));
    groups.update(2, undefined, at('x', 2));
    groups.update(3, undefined, at('x', 3));
    expect([...groups.keysOf('x')]).toEqual([1, 2, 3]);
    groups.update(1, at('x', 1), at('y', 1));
    groups.update(3, at('x', 3), undefined);
    expect([...groups.keysOf('x')]).toEqual([2]);
    expect([...groups.keysOf('y')]).toEqual([1]);
    groups.update(2, at('x', 2), undefined);
    groups.update(1, at('y', 1), undefined);
    expect(groups.keysOf('x').size).toBe(0);
    expect(groups.keysOf('y').size).toBe(0);
  });
});
