import type { WebhookJobReport } from '@onboarding-kit/core';
import type { WebhookJob } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { runDueWebhookJobs, startMemoryWebhookRunner } from '../src/memory-webhook-runner.js';

const report: WebhookJobReport = { attempted: 1, succeeded: 1, retrying: 0, failed: 0 };
const job = (n: number): WebhookJob => ({ type: 'attempt-delivery', deliveryId: String(n) });

/** A kit whose jobs end only when the test releases them, recording which are running. */
const gatedKit = () => {
  const running = new Set<string>();
  const gates = new Map<string, () => void>();
  const kit = {
    webhooks: {
      runJob: (ran: WebhookJob) => {
        const id = ran.type === 'attempt-delivery' ? ran.deliveryId : '';
        running.add(id);
        return ResultAsync.fromSafePromise(
          new Promise<WebhookJobReport>((resolve) =>
            gates.set(id, () => {
              running.delete(id);
              resolve(report);
            }),
          ),
        );
      },
    },
  } as never;
  return { kit, running, release: (id: string) => gates.get(id)?.() };
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('memory webhook runner', () => {
  it('runs a round one job at a time by default, and side by side with a concurrency', async () => {
    for (const [concurrency, expected] of [
      [undefined, 1],
      [3, 3],
    ] as const) {
      const { kit, running, release } = gatedKit();
      let due = [job(1), job(2), job(3)];
      const round = runDueWebhookJobs(
        kit,
        () => {
          const taken = due;
          due = [];
          return okAsync(taken);
        },
        async () => undefined,
        concurrency === undefined ? {} : { concurrency },
      );
      await tick();
      expect(running.size).toBe(expected);
      for (const id of ['1', '2', '3']) {
        release(id);
        await tick();
      }
      expect(await round).toMatchObject({ jobs: 3, attempted: 3 });
    }
  });

  it('starts a new round on the next tick while an earlier one still waits', async () => {
    const rounds: Array<() => void> = [];
    const runner = startMemoryWebhookRunner(
      () =>
        new Promise((resolve) =>
          rounds.push(() => resolve({ jobs: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 })),
        ),
      { intervalMs: 10, maxRounds: 3 },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The first round never ended, yet later ticks started rounds, up to the bound.
    expect(rounds).toHaveLength(3);
    for (const end of rounds) end();
    await runner.close();
  });
});
