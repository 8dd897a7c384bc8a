import { describe, expect, it } from 'vitest';
import { Table } from '../src/memory-table.js';

describe('memory table', () => {
  it('lists each live row once, in the order first added, through its own changes, and commits them', () => {
    const committed = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const table = new Table(committed);
    table.set('b', 3);
    table.delete('a');
    table.set('c', 4);
    table.set('d', 5);
    table.delete('d');
    expect([...table.values()]).toEqual([3, 4]);
    // Nothing reaches the committed rows before the commit.
    expect([...committed]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    table.commit();
    expect([...committed]).toEqual([
      ['b', 3],
      ['c', 4],
    ]);
  });
});
