import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startDemoMemoryJobLoop } from '../src/demo-memory-job-loop.js';

// The loop ticks on timers: fake ones here, moved by the test, so no test waits real time for a tick.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('starts a new round on the next tick while an earlier one still waits', async () => {
  const rounds: Array<() => void> = [];
  const loop = startDemoMemoryJobLoop(() => new Promise<void>((resolve) => rounds.push(resolve)), {
    intervalMs: 10,
    maxRounds: 3,
  });
  expect(rounds).toHaveLength(0);
  await vi.advanceTimersByTimeAsync(10);
  expect(rounds).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(20);
  // The first round never ended, yet later ticks started rounds, up to the bound.
  expect(rounds).toHaveLength(3);
  await vi.advanceTimersByTimeAsync(70);
  expect(rounds).toHaveLength(3);
  // A round that ends frees its place for the next tick.
  rounds[0]?.();
  await vi.advanceTimersByTimeAsync(10);
  expect(rounds).toHaveLength(4);
  for (const end of rounds) end();
  await loop.close();
});

it('tells the rounds in progress when it closes, and waits for them', async () => {
  let signal: AbortSignal | undefined;
  let ended = false;
  const loop = startDemoMemoryJobLoop(
    async (given) => {
      signal = given;
      await new Promise((resolve) => given.addEventListener('abort', resolve));
      ended = true;
    },
    { intervalMs: 10, maxRounds: 1 },
  );
  await vi.advanceTimersByTimeAsync(50);
  expect(signal?.aborted).toBe(false);
  expect(ended).toBe(false);
  await loop.close();
  expect(ended).toBe(true);
});
