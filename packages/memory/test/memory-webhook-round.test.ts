import type { WebhookJobReport } from '@onboarding-kit/core';
import type { WebhookJob } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

const report: WebhookJobReport = { attempted: 1, succeeded: 1, retrying: 0, failed: 0 };

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

/** The next turn of the event loop: the round's promise jobs queued before it have run (no time waited). */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('memory webhook round', () => {
  it('runs a round one job at a time by default, and side by side with a concurrency', async () => {
    for (const [concurrency, expected] of [
      [undefined, 1],
      [3, 3],
    ] as const) {
      const adapters = createMemoryAdapters();
      for (const id of ['1', '2', '3']) {
        const enqueued = await adapters.unitOfWork.transaction((stores) =>
          stores.webhookJobs.enqueueAttempt(id, adapters.clock.now()),
        );
        enqueued._unsafeUnwrap();
      }
      const { kit, running, release } = gatedKit();
      const round = adapters.testing.deliverDueWebhooks(
        kit,
        concurrency === undefined ? {} : { concurrency },
      );
      await tick();
      expect(running.size).toBe(expected);
      for (const id of ['1', '2', '3']) {
        release(id);
        await tick();
      }
      expect(await round).toMatchObject({ jobs: 3, attempted: 3 });
      expect(adapters.testing.listWebhookJobs()).toEqual([]);
    }
  });

  it('leaves a job due later on the queue, and runs the due ones soonest due first', async () => {
    const adapters = createMemoryAdapters();
    const now = adapters.clock.now().getTime();
    for (const [id, runAt] of [
      ['later', now + 60_000],
      ['second', now - 1_000],
      ['first', now - 2_000],
    ] as const) {
      const enqueued = await adapters.unitOfWork.transaction((stores) =>
        stores.webhookJobs.enqueueAttempt(id, new Date(runAt)),
      );
      enqueued._unsafeUnwrap();
    }
    const ran: string[] = [];
    const kit = {
      webhooks: {
        runJob: (job: WebhookJob) => {
          ran.push(job.type === 'attempt-delivery' ? job.deliveryId : '');
          return ResultAsync.fromSafePromise(Promise.resolve(report));
        },
      },
    } as never;
    expect(await adapters.testing.deliverDueWebhooks(kit)).toMatchObject({ jobs: 2 });
    expect(ran).toEqual(['first', 'second']);
    expect(adapters.testing.listWebhookJobs()).toEqual([
      { job: { type: 'attempt-delivery', deliveryId: 'later' }, runAt: new Date(now + 60_000) },
    ]);
  });

  it('hands the round its signal, runs no pass once aborted, and puts a job that failed back a second later', async () => {
    const adapters = createMemoryAdapters();
    const enqueue = async (id: string) =>
      (
        await adapters.unitOfWork.transaction((stores) =>
          stores.webhookJobs.enqueueAttempt(id, adapters.clock.now()),
        )
      )._unsafeUnwrap();
    await enqueue('failing');
    const signals: unknown[] = [];
    const controller = new AbortController();
    const kit = {
      webhooks: {
        runJob: (_job: WebhookJob, options: { signal?: AbortSignal }) => {
          signals.push(options.signal);
          return ResultAsync.fromPromise(Promise.reject(new Error('storage down')), () => ({
            type: 'StorageUnavailable',
          }));
        },
      },
    } as never;
    const before = adapters.clock.now().getTime();
    expect(await adapters.testing.deliverDueWebhooks(kit, { signal: controller.signal })).toMatchObject({
      jobs: 1,
      attempted: 0,
    });
    expect(signals).toEqual([controller.signal]);
    const [putBack] = adapters.testing.listWebhookJobs();
    expect(putBack?.job).toEqual({ type: 'attempt-delivery', deliveryId: 'failing' });
    expect(putBack?.runAt.getTime()).toBeGreaterThanOrEqual(before + 1_000);

    await enqueue('due');
    controller.abort();
    expect(await adapters.testing.deliverDueWebhooks(kit, { signal: controller.signal })).toMatchObject({
      jobs: 0,
    });
    expect(adapters.testing.listWebhookJobs()).toHaveLength(2);
  });

  it('stops a round after 100 passes of jobs that keep coming due', async () => {
    const adapters = createMemoryAdapters();
    const enqueue = () =>
      adapters.unitOfWork.transaction((stores) =>
        stores.webhookJobs.enqueueAttempt('again', adapters.clock.now()),
      );
    (await enqueue())._unsafeUnwrap();
    // Each run makes the next job due at once (a redelivery loop).
    const kit = { webhooks: { runJob: () => enqueue().map(() => report) } } as never;
    expect(await adapters.testing.deliverDueWebhooks(kit)).toMatchObject({ jobs: 100 });
    expect(adapters.testing.listWebhookJobs()).toHaveLength(1);
  });
});
