import { describe, expect, it } from 'vitest';
import { KeyGroups } from '../src/key-groups.js';
import { StagedMap } from '../src/staged-map.js';

type Record = { readonly owner: string; readonly n: number };

describe("a StagedMap's key groups", () => {
  const setup = () => {
    const committed = new Map<string, Record>();
    const groups = new KeyGroups<string, Record>((record) => record.owner);
    const view = () => new StagedMap(committed, undefined, groups);
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
    expect(staging.hasAtLeastWithin('x', ofOwner('x'), 2)).toBe(true);
    expect(staging.hasAtLeastWithin('x', ofOwner('x'), 3)).toBe(false);
    expect(staging.hasAtLeastWithin('x', (record) => record.owner === 'x' && record.n > 2, 1)).toBe(true);
    expect(
      staging
        .selectWithin('x', ofOwner('x'))
        .map((record) => record.n)
        .sort(),
    ).toEqual([2, 3]);
    // Never committed (a rolled-back transaction): the committed view and the index are unchanged.
    expect(view().hasAtLeastWithin('x', ofOwner('x'), 2)).toBe(true);
    expect(view().hasAtLeastWithin('x', (record) => record.owner === 'x' && record.n === 3, 1)).toBe(false);
    expect([...groups.keysOf('x')]).toEqual(['a', 'b']);
  });
});
