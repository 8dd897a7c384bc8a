import { describe, expect, it } from 'vitest';
import { createSubscribedManagers } from '../src/subscribed-managers.js';

describe('SubscribedManagers', () => {
  it('remembers a manager for its time to live, then forgets it', () => {
    const managers = createSubscribedManagers({ ttlMs: 1_000 });
    expect(managers.has('a', 0)).toBe(false);
    managers.remember('a', 0);
    expect(managers.has('a', 999)).toBe(true);
    expect(managers.has('a', 1_000)).toBe(false);
    // Forgotten for good, not only answered false.
    expect(managers.has('a', 0)).toBe(false);
  });

  it('renews an entry remembered again', () => {
    const managers = createSubscribedManagers({ ttlMs: 1_000 });
    managers.remember('a', 0);
    managers.remember('a', 900);
    expect(managers.has('a', 1_500)).toBe(true);
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const managers = createSubscribedManagers({ ttlMs: 60_000, maxEntries: 3 });
    for (const [index, id] of ['a', 'b', 'c', 'd'].entries()) managers.remember(id, index);
    expect(['a', 'b', 'c', 'd'].map((id) => managers.has(id, 10))).toEqual([false, true, true, true]);
    // Renewed, 'b' is now the newest: 'c' goes next.
    managers.remember('b', 20);
    managers.remember('e', 21);
    expect(['b', 'c', 'd', 'e'].map((id) => managers.has(id, 30))).toEqual([true, false, true, true]);
  });
});
