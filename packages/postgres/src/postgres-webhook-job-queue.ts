import { storageUnavailable, type WebhookJob, type WebhookJobQueue } from '@onboarding-kit/core';
import { okAsync, ResultAsync } from 'neverthrow';
import type PgBoss from 'pg-boss';
import type { KitTables } from './kit-tables.js';
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
      return ResultAsync.fromPromise(
        db.query<{ manager_id: string }>(subscribedManagers([managers])),
        unavailable,
      ).andThen((result) => {
        const subscribed = new Set(result.rows.map((row) => row.manager_id));
        const eventIds = events
          .filter(({ managerId }) => subscribed.has(managerId))
          .map(({ event }) => event.id);
        return eventIds.length === 0 ? okAsync(undefined) : send({ type: 'deliver-events', eventIds });
      });
    },
    enqueueAttempt: (deliveryId, runAt) => send({ type: 'attempt-delivery', deliveryId }, runAt),
  };
};
