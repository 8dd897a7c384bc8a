import { describe, expect, it } from 'vitest';
import { frozenCopy, TransactionCopies } from '../src/frozen-copy.js';

describe('frozenCopy', () => {
  it('copies JSON-like data deeply and freezes every level', () => {
    const original = { a: 1, b: [{ c: 'x', d: null }, [true]], e: { f: { g: 2.5 } }, h: undefined };
    const copy = frozenCopy(original);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.b[0]).not.toBe(original.b[0]);
    for (const part of [copy, copy.b, copy.b[0], copy.b[1], copy.e, copy.e.f])
      expect(Object.isFrozen(part)).toBe(true);
    original.e.f.g = 3;
    expect(copy.e.f.g).toBe(2.5);
    expect(() => {
      (copy.e.f as { g: number }).g = 4;
    }).toThrow(TypeError);
  });

  it('keeps other objects whole (a Date stays a Date) and never shares them', () => {
    const at = new Date('2030-01-01T00:00:00.000Z');
    const copy = frozenCopy({ at, bytes: new Uint8Array([1, 2]) });
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at.getTime()).toBe(at.getTime());
    expect(copy.at).not.toBe(at);
    expect(Array.from(copy.bytes)).toEqual([1, 2]);
  });

  it('keeps a prototype-less object’s keys, and a key named __proto__ as data', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 1 });
    expect(frozenCopy(bare)).toEqual({ k: 1 });
    const tricky = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = frozenCopy(tricky);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__']);
  });

  it('copies an object written twice in one transaction once, and shares that copy', () => {
    const profile = { name: 'Ada', documents: ['a.pdf'] };
    const copies = new TransactionCopies();
    const client = frozenCopy({ id: 'c1', profile }, copies);
    const event = frozenCopy({ type: 'client.created', data: { client: { id: 'c1', profile } } }, copies);
    expect(event.data.client.profile).toBe(client.profile);
    expect(client.profile).not.toBe(profile);
    expect(Object.isFrozen(client.profile.documents)).toBe(true);
    // Another transaction copies anew.
    expect(frozenCopy({ profile }, new TransactionCopies()).profile).not.toBe(client.profile);
    expect(frozenCopy({ profile }).profile).not.toBe(client.profile);
  });
});
