import { storageUnavailable, type WebhookJob, type WebhookJobQueue } from '@onboarding-kit/core';
import { okAsync, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import type { WebhookEndpointPresence } from './postgres-event-log.js';
import { preparedJobEngineDatabase, webhookQueue } from './postgres-job-engine.js';
import type { TransactionJobs } from './postgres-unit-of-work.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** Which of some managers have a webhook endpoint, prepared, built once per schema. */
const subscribedManagersStatementOf = statementsPerSchema((tables) =>
  preparedStatement(
    `SELECT DISTINCT manager_id FROM ${tables.webhookEndpoints} WHERE manager_id = ANY($1::text[])`,
  ),
);

/**
 * Webhook jobs on pg-boss, sent through the command's own connection so that they commit (or roll
 * back) with it. A command's events become one job, and only when their manager has an endpoint:
 * the transaction's event append read that in its own statement (`endpointPresence`); a manager it
 * did not write events of is asked about here.
 */
export const createPostgresWebhookJobQueue = (
  db: SqlSession,
  tables: KitTables,
  { boss, jobExpirySeconds }: TransactionJobs,
  endpointPresence: WebhookEndpointPresence = new Map(),
): WebhookJobQueue => {
  const subscribedManagersStatement = subscribedManagersStatementOf(tables);
  const send = (job: WebhookJob, startAfter?: Date) =>
    ResultAsync.fromPromise(
      boss.send(webhookQueue, job, {
        db: preparedJobEngineDatabase(db),
        expireInSeconds: jobExpirySeconds,
        ...(startAfter === undefined ? {} : { startAfter }),
      }),
      unavailable,
    ).map(() => undefined);
  return {
    enqueueEventDeliveries: (events) => {
      if (events.length === 0) return okAsync(undefined);
      const managers = [...new Set(events.map(({ managerId }) => managerId))];
      const unknown = managers.filter((managerId) => !endpointPresence.has(managerId));
      const subscribed = new Set(managers.filter((managerId) => endpointPresence.get(managerId) === true));
      const lookup =
        unknown.length === 0
          ? okAsync(subscribed)
          : ResultAsync.fromPromise(
              db.query<{ manager_id: string }>(subscribedManagersStatement([unknown])),
              unavailable,
            ).map((result) => {
              for (const { manager_id } of result.rows) subscribed.add(manager_id);
              return subscribed;
            });
      return lookup.andThen((withEndpoint) => {
        const eventIds = events
          .filter(({ managerId }) => withEndpoint.has(managerId))
          .map(({ event }) => event.id);
        return eventIds.length === 0 ? okAsync(undefined) : send({ type: 'deliver-events', eventIds });
      });
    },
    enqueueAttempt: (deliveryId, runAt) => send({ type: 'attempt-delivery', deliveryId }, runAt),
  };
};
