import { storageUnavailable, type WebhookJob, type WebhookJobQueue } from '@onboarding-kit/core';
import { ok, okAsync, ResultAsync } from 'neverthrow';
import type PgBoss from 'pg-boss';
import type { KitTables } from './kit-tables.js';
import type { WebhookEndpointPresence } from './postgres-event-log.js';
import { jobEngineDatabase, webhookQueue } from './postgres-job-engine.js';
import { preparedStatement, type SqlSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/**
 * Webhook jobs on pg-boss, sent through the command's own connection so that they commit (or roll
 * back) with it. A command's events become one job, and only when their manager has an endpoint.
 */
export const createPostgresWebhookJobQueue = (
  db: SqlSession,
  tables: KitTables,
  boss: PgBoss,
  { jobExpirySeconds }: { readonly jobExpirySeconds: number },
  endpointPresence: WebhookEndpointPresence = new Map(),
): WebhookJobQueue => {
  const subscribedManagers = preparedStatement(
    `SELECT DISTINCT manager_id FROM ${tables.webhookEndpoints} WHERE manager_id = ANY($1::text[])`,
  );
  const send = (job: WebhookJob, startAfter?: Date) =>
    ResultAsync.fromPromise(
      boss.send(webhookQueue, job, {
        db: jobEngineDatabase(db),
        expireInSeconds: jobExpirySeconds,
        ...(startAfter === undefined ? {} : { startAfter }),
      }),
      unavailable,
    ).map(() => undefined);
  return {
    enqueueEventDeliveries: (events) => {
      if (events.length === 0) return okAsync(undefined);
      const managers = [...new Set(events.map(({ managerId }) => managerId))];
      // The transaction's event append already read whether these managers have an endpoint.
      const unknown = managers.filter((managerId) => !endpointPresence.has(managerId));
      const subscribed = new Set(managers.filter((managerId) => endpointPresence.get(managerId) === true));
      const lookup =
        unknown.length === 0
          ? okAsync(subscribed)
          : ResultAsync.fromPromise(
              db.query<{ manager_id: string }>(subscribedManagers([unknown])),
              unavailable,
            ).andThen((result) => {
              for (const row of result.rows) subscribed.add(row.manager_id);
              return ok(subscribed);
            });
      return lookup.andThen(() => {
        const eventIds = events
          .filter(({ managerId }) => subscribed.has(managerId))
          .map(({ event }) => event.id);
        return eventIds.length === 0 ? okAsync(undefined) : send({ type: 'deliver-events', eventIds });
      });
    },
    enqueueAttempt: (deliveryId, runAt) => send({ type: 'attempt-delivery', deliveryId }, runAt),
  };
};
