import type { Clock } from '@onboarding-kit/core';
import type { StorageUnavailable, WebhookJob, WebhookJobQueue } from '@onboarding-kit/core/adapter';
import { ok, type ResultAsync } from 'neverthrow';
import { dueOrder, enqueueJob, type TableAccess } from './memory-database.js';

/** Adds one job, due at `runAt`. */
export const enqueueWebhookJob = (access: TableAccess, job: WebhookJob, runAt: Date) =>
  access.write((tables) => ok(enqueueJob(tables, tables.webhookJobs, job, runAt.getTime())));

/**
 * The webhook job queue in memory: jobs are rows of the memory tables, so they commit with the
 * command that enqueued them; they are due at their `runAt` on the kit's clock.
 */
export const createMemoryWebhookJobQueue = (access: TableAccess, clock: Clock): WebhookJobQueue => ({
  enqueueEventDeliveries: (events) =>
    access
      .read((tables) => {
        const endpoints = [...tables.webhookEndpoints.values()];
        return events.filter(({ managerId }) =>
          endpoints.some((endpoint) => endpoint.managerId === managerId),
        );
      })
      .andThen((subscribed) =>
        subscribed.length === 0
          ? ok(undefined)
          : enqueueWebhookJob(
              access,
              { type: 'deliver-events', eventIds: subscribed.map(({ event }) => event.id) },
              clock.now(),
            ),
      ),
  enqueueAttempt: (deliveryId, runAt) =>
    enqueueWebhookJob(access, { type: 'attempt-delivery', deliveryId }, runAt),
  enqueueAttempts: (deliveries, runAt) =>
    enqueueWebhookJob(
      access,
      { type: 'attempt-deliveries', deliveries: deliveries.map((put) => ({ ...put })) },
      runAt,
    ),
});

/** Takes the jobs due at `now` off the queue, soonest due first. */
export const takeDueWebhookJobs = (
  access: TableAccess,
  now: Date,
): ResultAsync<WebhookJob[], StorageUnavailable> =>
  access.write((tables) => {
    const due = [...tables.webhookJobs.values()].filter(({ runAt }) => runAt <= now.getTime()).sort(dueOrder);
    for (const { number } of due) tables.webhookJobs.delete(String(number));
    return ok(due.map(({ job }) => job));
  });
