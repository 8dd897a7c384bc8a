import type { ClientEventType } from '@onboarding-kit/core';
import {
  type StoredWebhookEndpoint,
  storageUnavailable,
  type WebhookEndpointDisabledReason,
  type WebhookEndpointStore,
  type WebhookSigningSecret,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';
import { resultQuery, type SqlSession } from './sql-session.js';

type EndpointRow = {
  id: string;
  manager_id: string;
  url: string;
  description: string | null;
  event_types: ClientEventType[] | null;
  created_at: string;
  secrets: WebhookSigningSecret[];
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: WebhookEndpointDisabledReason | null;
};

const toEndpoint = (row: EndpointRow): StoredWebhookEndpoint => ({
  id: row.id,
  managerId: row.manager_id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  createdAt: row.created_at,
  secrets: row.secrets,
  failingSince: row.failing_since,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
});

/** Webhook endpoints on PostgreSQL (migrations 0001, 0012); removing one cascades to its deliveries. */
export const createPostgresWebhookEndpointStore = (
  db: SqlSession,
  tables: KitTables,
): WebhookEndpointStore => {
  const columns = `id, manager_id, url, description, event_types, ${isoTimestampSql('created_at')} AS created_at, secrets,
    ${isoTimestampSql('failing_since')} AS failing_since, ${isoTimestampSql('disabled_at')} AS disabled_at,
    disabled_reason`;
  const query = resultQuery(db);
  return {
    // A transaction-scoped lock per manager, taken before the counting insert: the insert's
    // snapshot then sees every endpoint committed by the manager's previous creations, so a burst
    // of creations cannot pass the limit together (a plain count-then-insert let them).
    insertWithinLimit: (endpoint, maxPerManager) =>
      ResultAsync.fromPromise(
        db.atomically(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `onboarding-kit:webhook-endpoints:${tables.schema}:${endpoint.managerId}`,
          ]);
          const inserted = await tx.query(
            `INSERT INTO ${tables.webhookEndpoints}
               (id, manager_id, url, description, event_types, created_at, secrets,
                failing_since, disabled_at, disabled_reason)
             SELECT $1, $2, $3, $4, $5, $6, $7::jsonb, $9, $10, $11
             WHERE (SELECT count(*) FROM ${tables.webhookEndpoints} WHERE manager_id = $2) < $8`,
            [
              endpoint.id,
              endpoint.managerId,
              endpoint.url,
              endpoint.description,
              endpoint.eventTypes,
              endpoint.createdAt,
              JSON.stringify(endpoint.secrets),
              maxPerManager,
              endpoint.failingSince,
              endpoint.disabledAt,
              endpoint.disabledReason,
            ],
          );
          return inserted.rowCount === 1;
        }),
        storageUnavailable('postgres'),
      ),
    listForManager: (managerId) =>
      query<EndpointRow>(
        `SELECT ${columns} FROM ${tables.webhookEndpoints} WHERE manager_id = $1 ORDER BY created_at, id`,
        [managerId],
      ).map((result) => result.rows.map(toEndpoint)),
    find: (managerId, endpointId) =>
      query<EndpointRow>(
        `SELECT ${columns} FROM ${tables.webhookEndpoints} WHERE manager_id = $1 AND id = $2`,
        [managerId, endpointId],
      ).map((result) => (result.rows[0] === undefined ? null : toEndpoint(result.rows[0]))),
    // The row lock is held to the end of the command's transaction: a concurrent rotation waits
    // here and then reads the secrets this one wrote (READ COMMITTED re-reads a locked row).
    findForUpdate: (managerId, endpointId) =>
      query<EndpointRow>(
        `SELECT ${columns} FROM ${tables.webhookEndpoints} WHERE manager_id = $1 AND id = $2 FOR UPDATE`,
        [managerId, endpointId],
      ).map((result) => (result.rows[0] === undefined ? null : toEndpoint(result.rows[0]))),
    remove: (managerId, endpointId) =>
      query(`DELETE FROM ${tables.webhookEndpoints} WHERE manager_id = $1 AND id = $2`, [
        managerId,
        endpointId,
      ]).map((result) => result.rowCount === 1),
    replaceSecrets: (managerId, endpointId, expected, next) =>
      query(
        `UPDATE ${tables.webhookEndpoints} SET secrets = $4::jsonb
         WHERE manager_id = $1 AND id = $2 AND secrets = $3::jsonb`,
        [managerId, endpointId, JSON.stringify(expected), JSON.stringify(next)],
      ).map((result) => result.rowCount === 1),
    // A success only ends a failing streak: it disables nothing, and an endpoint not failing (the
    // usual case) is neither locked nor written, where every success used to write its row anew.
    // A failure is one statement: the row lock of the CTE makes attempts ending at once note one
    // after the other, each deciding on what the previous one wrote; `newly` is what it decided.
    noteAttemptResult: (managerId, endpointId, result, at, disableAfterFailingMs) =>
      result === 'succeeded'
        ? query(
            `UPDATE ${tables.webhookEndpoints} SET failing_since = NULL
             WHERE manager_id = $1 AND id = $2 AND failing_since IS NOT NULL`,
            [managerId, endpointId],
          ).map(() => null)
        : query<{ newly: WebhookEndpointDisabledReason | null }>(
            `WITH previous AS (
           SELECT id, disabled_at,
                  CASE WHEN $3 = 'succeeded' THEN NULL ELSE coalesce(failing_since, $4::timestamptz) END
                    AS failing_since
           FROM ${tables.webhookEndpoints} WHERE manager_id = $1 AND id = $2 FOR UPDATE
         ), decided AS (
           SELECT id, failing_since,
                  CASE WHEN disabled_at IS NOT NULL OR failing_since IS NULL THEN NULL
                       WHEN $3 = 'gone' THEN 'gone'
                       WHEN failing_since <= $4::timestamptz - make_interval(secs => $5::double precision / 1000)
                         THEN 'failing'
                  END AS newly
           FROM previous
         )
         UPDATE ${tables.webhookEndpoints} AS endpoint
         SET failing_since = decided.failing_since,
             disabled_at = CASE WHEN decided.newly IS NULL THEN endpoint.disabled_at ELSE $4::timestamptz END,
             disabled_reason = coalesce(decided.newly, endpoint.disabled_reason)
         FROM decided WHERE endpoint.id = decided.id
         RETURNING decided.newly`,
            [managerId, endpointId, result, at.toISOString(), disableAfterFailingMs],
          ).map((answer) => answer.rows[0]?.newly ?? null),
    enable: (managerId, endpointId) =>
      query(
        `UPDATE ${tables.webhookEndpoints}
         SET failing_since = NULL, disabled_at = NULL, disabled_reason = NULL
         WHERE manager_id = $1 AND id = $2`,
        [managerId, endpointId],
      ).map((result) => result.rowCount === 1),
  };
};
