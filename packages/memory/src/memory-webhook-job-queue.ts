import type { Clock } from '@onboarding-kit/core';
import type { StorageUnavailable, WebhookJob, WebhookJobQueue } from '@onboarding-kit/core/adapter';
import { ok, type ResultAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { entries, type OrderKey } from './memory-tables.js';
import { hasWebhookEndpoint } from './memory-webhook-endpoint-store.js';

/** Numbers the jobs of one memory database (shared by every transaction on it). */
export type JobSequence = { next(): number };
export const createJobSequence = (): JobSequence => {
  let last = 0;
  return { next: () => (last += 1) };
};

/** Adds one job, due at `runAt`. */
export const enqueueWebhookJob = (access: TableAccess, sequence: JobSequence, job: WebhookJob, runAt: Date) =>
  access.write((tables) => {
    tables.webhookJobs = tables.webhookJobs.insert([runAt.getTime(), sequence.next()], frozenClone(job));
    return ok(undefined);
  });

/**
 * The webhook job queue in memory: jobs are rows of the memory tables, so they commit with the
 * command that enqueued them; they are due at their `runAt` on the kit's clock.
 */
export const createMemoryWebhookJobQueue = (
  access: TableAccess,
  clock: Clock,
  sequence: JobSequence,
): WebhookJobQueue => {
  const enqueue = (job: WebhookJob, runAt: Date) => enqueueWebhookJob(access, sequence, job, runAt);
  return {
    enqueueEventDeliveries: (events) =>
      access
        .read((tables) => events.filter(({ managerId }) => hasWebhookEndpoint(tables, managerId)))
        .andThen((subscribed) =>
          subscribed.length === 0
            ? ok(undefined)
            : enqueue(
                { type: 'deliver-events', eventIds: subscribed.map(({ event }) => event.id) },
                clock.now(),
              ),
        ),
    enqueueAttempt: (deliveryId, runAt) => enqueue({ type: 'attempt-delivery', deliveryId }, runAt),
    enqueueAttempts: (deliveries, runAt) =>
      enqueue({ type: 'attempt-deliveries', deliveries: deliveries.map((put) => ({ ...put })) }, runAt),
  };
};

/** Takes the jobs due at `now` off the queue, oldest due first. */
export const takeDueWebhookJobs = (
  access: TableAccess,
  now: Date,
): ResultAsync<WebhookJob[], StorageUnavailable> =>
  access.write((tables) => {
    const due: (readonly [OrderKey, WebhookJob])[] = [];
    for (const entry of entries(tables.webhookJobs)) {
      if ((entry[0][0] as number) > now.getTime()) break;
      due.push(entry);
    }
    for (const [key] of due) tables.webhookJobs = tables.webhookJobs.remove(key);
    return ok(due.map(([, job]) => job));
  });
