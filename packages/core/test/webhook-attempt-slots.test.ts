import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookAttemptSlots } from '../src/services/webhook-attempt-slots.js';

/** An attempt that ends when the test says so. */
const pending = () => {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('webhook attempt slots', () => {
  it('holds two attempts per endpoint and the total, and gives freed slots to endpoints in turn', async () => {
    let clock = 0;
    const slots = createWebhookAttemptSlots({
      total: 3,
      perEndpoint: 2,
      maxWaitMs: 60_000,
      now: () => clock,
    });
    const started: string[] = [];
    const attempts = new Map<string, ReturnType<typeof pending>>();
    const run = (endpoint: string, n: number) =>
      slots.run(
        endpoint,
        async () => {
          const attempt = pending();
          attempts.set(`${endpoint}${n}`, attempt);
          started.push(`${endpoint}${n}`);
          await attempt.done;
          return n;
        },
        () => false,
      );
    const runs = [run('a', 1), run('a', 2), run('a', 3), run('a', 4), run('b', 1), run('c', 1)];
    await settle();
    // a takes its two, b the last of the three; a3, a4 and c1 wait.
    expect(started).toEqual(['a1', 'a2', 'b1']);
    attempts.get('a1')?.finish();
    await settle();
    // The freed slot goes round the waiting endpoints: a (still at its limit? no: one left) first.
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    attempts.get('b1')?.finish();
    await settle();
    expect(started.at(-1)).toBe('c1');
    for (const name of ['a2', 'a3', 'c1']) attempts.get(name)?.finish();
    await settle();
    attempts.get('a4')?.finish();
    clock += 1;
    expect((await Promise.all(runs)).map((r) => r.type)).toEqual(Array(6).fill('ran'));
  });

  it('hands back at once the attempts to a slow endpoint at its limit, and those waiting on it', async () => {
    let clock = 0;
    const slots = createWebhookAttemptSlots({
      total: 64,
      perEndpoint: 2,
      maxWaitMs: 60_000,
      now: () => clock,
    });
    // Every attempt to this endpoint hangs until the test ends it, then counts as slow.
    const hang = () => {
      const attempt = pending();
      let started = false;
      const run = slots.run(
        'slow',
        async () => {
          started = true;
          await attempt.done;
        },
        (_outcome, elapsedMs) => elapsedMs >= 1_000,
      );
      return { run, finish: attempt.finish, started: () => started };
    };
    const [first, second] = [hang(), hang()];
    await settle();
    // Not known slow yet: two more wait for a slot.
    const [third, fourth] = [hang(), hang()];
    clock += 5_000;
    first?.finish();
    await settle();
    // The first was slow: the slot it freed goes to the third; the fourth is handed back.
    expect(await first?.run).toMatchObject({ type: 'ran' });
    expect(third?.started()).toBe(true);
    expect(await fourth?.run).toEqual({ type: 'busy' });
    // Known slow and at its limit: a new attempt is handed back without waiting.
    expect(await hang().run).toEqual({ type: 'busy' });
    // Another endpoint is not held up by it.
    expect(
      await slots.run(
        'fast',
        async () => 'ok',
        () => false,
      ),
    ).toEqual({ type: 'ran', outcome: 'ok' });
    second?.finish();
    third?.finish();
    expect((await Promise.all([second?.run, third?.run])).map((r) => r?.type)).toEqual(['ran', 'ran']);
  });

  describe('a fast endpoint with a backlog', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('hands back an attempt that waited maxWaitMs for a slot, so that a job holds its place for a bounded time', async () => {
      vi.useFakeTimers();
      const slots = createWebhookAttemptSlots({
        total: 64,
        perEndpoint: 2,
        maxWaitMs: 10_000,
        now: Date.now,
      });
      const inFlight = [pending(), pending()];
      const running = inFlight.map((attempt) =>
        slots.run(
          'backlog',
          () => attempt.done,
          () => false,
        ),
      );
      let thirdStarted = false;
      const third = slots.run(
        'backlog',
        async () => {
          thirdStarted = true;
        },
        () => false,
      );
      await vi.advanceTimersByTimeAsync(9_999);
      expect(thirdStarted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await third).toEqual({ type: 'busy' });
      expect(thirdStarted).toBe(false);
      // The slots it waited for still go to the next in turn.
      for (const attempt of inFlight) attempt.finish();
      expect((await Promise.all(running)).map((r) => r.type)).toEqual(['ran', 'ran']);
      expect(
        await slots.run(
          'backlog',
          async () => 'next',
          () => false,
        ),
      ).toEqual({ type: 'ran', outcome: 'next' });
    });

    it("hands back what waits once the caller's signal is aborted, and starts nothing after", async () => {
      const slots = createWebhookAttemptSlots({
        total: 64,
        perEndpoint: 2,
        maxWaitMs: 60_000,
        now: Date.now,
      });
      const inFlight = [pending(), pending()];
      const running = inFlight.map((attempt) =>
        slots.run(
          'backlog',
          () => attempt.done,
          () => false,
        ),
      );
      const stopping = new AbortController();
      const waiting = Array.from({ length: 50 }, () =>
        slots.run(
          'backlog',
          async () => 'sent',
          () => false,
          { signal: stopping.signal },
        ),
      );
      await settle();
      stopping.abort();
      expect(await Promise.all(waiting)).toEqual(Array(50).fill({ type: 'busy' }));
      // With a free slot too, nothing new starts on an aborted signal.
      expect(
        await slots.run(
          'idle',
          async () => 'sent',
          () => false,
          { signal: stopping.signal },
        ),
      ).toEqual({ type: 'busy' });
      for (const attempt of inFlight) attempt.finish();
      expect((await Promise.all(running)).map((r) => r.type)).toEqual(['ran', 'ran']);
    });
  });
});
