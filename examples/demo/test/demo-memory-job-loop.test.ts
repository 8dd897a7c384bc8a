import { expect, it } from 'vitest';
import { startDemoMemoryJobLoop } from '../src/demo-memory-job-loop.js';

it('starts a new round on the next tick while an earlier one still waits', async () => {
  const rounds: Array<() => void> = [];
  const loop = startDemoMemoryJobLoop(() => new Promise<void>((resolve) => rounds.push(resolve)), {
    intervalMs: 10,
    maxRounds: 3,
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  // The first round never ended, yet later ticks started rounds, up to the bound.
  expect(rounds).toHaveLength(3);
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
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(signal?.aborted).toBe(false);
  await loop.close();
  expect(ended).toBe(true);
});
