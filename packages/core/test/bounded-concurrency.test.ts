import { errAsync, ResultAsync } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { combineBounded, settleBounded } from '../src/results/bounded-concurrency.js';

// Each item ends after its own delay, on fake timers: the order in which items end is the test's,
// and no test waits real time for it.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
const later = <T>(value: T, ms: number) =>
  ResultAsync.fromSafePromise(new Promise<T>((resolve) => setTimeout(() => resolve(value), ms)));
/** Runs every timer the items set (and what they set in turn), then answers the outcome. */
const settled = async <T>(outcome: PromiseLike<T>): Promise<T> => {
  await vi.runAllTimersAsync();
  return outcome;
};

describe('combineBounded', () => {
  it('answers every value in the order of the items, never running more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const values = await settled(
      combineBounded([5, 1, 4, 2, 3, 0, 6, 2], 3, (ms) => {
        running += 1;
        most = Math.max(most, running);
        return later(ms * 10, ms).map((value) => {
          running -= 1;
          return value;
        });
      }),
    );
    expect(values._unsafeUnwrap()).toEqual([50, 10, 40, 20, 30, 0, 60, 20]);
    expect(most).toBe(3);
  });

  it('answers the first Err and starts nothing after it', async () => {
    const started: number[] = [];
    const outcome = await settled(
      combineBounded([1, 2, 3, 4, 5], 1, (item) => {
        started.push(item);
        return item === 2 ? errAsync({ type: 'Failed' as const, item }) : later(item, 1);
      }),
    );
    expect(outcome._unsafeUnwrapErr()).toEqual({ type: 'Failed', item: 2 });
    expect(started).toEqual([1, 2]);
  });

  it('answers an empty list for no items', async () => {
    expect((await settled(combineBounded([], 4, (item: number) => later(item, 1))))._unsafeUnwrap()).toEqual(
      [],
    );
  });
});

describe('settleBounded', () => {
  it('settles every started item, starts none after the first Err, and keeps the order of the items', async () => {
    const started: number[] = [];
    const outcomes = await settled(
      settleBounded([30, 1, 20, 5, 7, 8], 2, (ms) => {
        started.push(ms);
        return ms === 1 ? errAsync(`failed ${ms}`) : later(ms, ms);
      }),
    );
    // 30 and 1 start; 1 fails at once, so only what was running (30) finishes, and nothing more starts.
    expect(started).toEqual([30, 1]);
    expect(outcomes.map(({ item, result }) => [item, result.isOk() ? result.value : result.error])).toEqual([
      [30, 30],
      [1, 'failed 1'],
    ]);
  });

  it('settles every item when none fails', async () => {
    const outcomes = await settled(settleBounded([3, 1, 2], 8, (ms) => later(ms * 2, ms)));
    expect(outcomes.map(({ result }) => result._unsafeUnwrap())).toEqual([6, 2, 4]);
  });
});
