import type { ClientEventType, WebhookDeliveryStatus } from '@onboarding-kit/core';
import type { StoredWebhookDelivery, WebhookDeliveryStore } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';
import { resultQuery, type SqlSession } from './sql-session.js';

type DeliveryRow = {
  id: string;
  manager_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: ClientEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  created_at: string;
  retry_until: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
};

const toDelivery = (row: DeliveryRow): StoredWebhookDelivery => ({
  id: row.id,
  managerId: row.manager_id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.created_at,
  retryUntil: row.retry_until,
  lastAttemptAt: row.last_attempt_at,
  nextAttemptAt: row.next_attempt_at,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
});

/** Webhook deliveries on PostgreSQL (migration 0006): one row per (endpoint, event). */
export const createPostgresWebhookDeliveryStore = (
  db: SqlSession,
  tables: KitTables,
): WebhookDeliveryStore => {
  const columns = [
    'id',
    'manager_id',
    'endpoint_id',
    'event_id',
    'event_type',
    'status',
    'attempts',
    `${isoTimestampSql('created_at')} AS created_at`,
    `${isoTimestampSql('retry_until')} AS retry_until`,
    `${isoTimestampSql('last_attempt_at')} AS last_attempt_at`,
    `${isoTimestampSql('next_attempt_at')} AS next_attempt_at`,
    'last_status_code',
    'last_error',
  ].join(', ');
  const query = resultQuery(db);
  return {
    insertMissing: (deliveries) =>
      deliveries.length === 0
        ? okAsync(undefined)
        : query(
            // An endpoint removed meanwhile takes no delivery (the join finds no row).
            `INSERT INTO ${tables.webhookDeliveries}
               (id, manager_id, endpoint_id, event_id, event_type, status, attempts, created_at,
                retry_until, last_attempt_at, next_attempt_at, last_status_code, last_error)
             SELECT d.id, d.manager_id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempts,
                    d.created_at, d.retry_until, d.last_attempt_at, d.next_attempt_at,
                    d.last_status_code, d.last_error
             FROM json_to_recordset($1::json) AS d(id uuid, manager_id text, endpoint_id uuid,
               event_id uuid, event_type text, status text, attempts integer, created_at timestamptz,
               retry_until timestamptz, last_attempt_at timestamptz, next_attempt_at timestamptz,
               last_status_code integer, last_error text)
             JOIN ${tables.webhookEndpoints} e ON e.id = d.endpoint_id
             ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
            [
              JSON.stringify(
                deliveries.map((delivery) => ({
                  id: delivery.id,
                  manager_id: delivery.managerId,
                  endpoint_id: delivery.endpointId,
                  event_id: delivery.eventId,
                  event_type: delivery.eventType,
                  status: delivery.status,
                  attempts: delivery.attempts,
                  created_at: delivery.createdAt,
                  retry_until: delivery.retryUntil,
                  last_attempt_at: delivery.lastAttemptAt,
                  next_attempt_at: delivery.nextAttemptAt,
                  last_status_code: delivery.lastStatusCode,
                  last_error: delivery.lastError,
                })),
              ),
            ],
          ).map(() => undefined),
    find: (deliveryId) =>
      query<DeliveryRow>(`SELECT ${columns} FROM ${tables.webhookDeliveries} WHERE id = $1`, [
        deliveryId,
      ]).map((result) => (result.rows[0] === undefined ? null : toDelivery(result.rows[0]))),
    listForEvents: (eventIds) =>
      eventIds.length === 0
        ? okAsync([])
        : query<DeliveryRow>(
            `SELECT ${columns} FROM ${tables.webhookDeliveries} WHERE event_id = ANY($1::uuid[])`,
            [eventIds],
          ).map((result) => result.rows.map(toDelivery)),
    listForEndpoint: ({ managerId, endpointId, status, limit, before }) =>
      query<DeliveryRow>(
        `SELECT ${columns} FROM ${tables.webhookDeliveries}
         WHERE endpoint_id = $1 AND manager_id = $2 AND ($3::text IS NULL OR status = $3)
           AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
         ORDER BY created_at DESC, id DESC LIMIT $6`,
        [
          endpointId,
          managerId,
          status ?? null,
          before?.createdAt ?? null,
          before?.id ?? null,
          Math.max(1, Math.floor(limit)),
        ],
      ).map((result) => result.rows.map(toDelivery)),
    update: (delivery, expectedAttempts) =>
      query(
        `UPDATE ${tables.webhookDeliveries}
         SET status = $3, attempts = $4, retry_until = $5, last_attempt_at = $6, next_attempt_at = $7,
             last_status_code = $8, last_error = $9,
             attempt_claimed_until = CASE WHEN $4 = $2 THEN attempt_claimed_until END
         WHERE id = $1 AND attempts = $2`,
        [
          delivery.id,
          expectedAttempts,
          delivery.status,
          delivery.attempts,
          delivery.retryUntil,
          delivery.lastAttemptAt,
          delivery.nextAttemptAt,
          delivery.lastStatusCode,
          delivery.lastError,
        ],
      ).map((result) => result.rowCount === 1),
    // One statement: of two workers claiming at once, the second waits for the first's row lock,
    // then re-reads the row and finds it claimed (READ COMMITTED re-checks the WHERE).
    claimAttempt: (deliveryId, expectedAttempts, now, until) =>
      query(
        `UPDATE ${tables.webhookDeliveries} SET attempt_claimed_until = $4
         WHERE id = $1 AND attempts = $2 AND status = 'pending'
           AND (attempt_claimed_until IS NULL OR attempt_claimed_until <= $3)`,
        [deliveryId, expectedAttempts, now.toISOString(), until.toISOString()],
      ).map((result) => result.rowCount === 1),
  };
};
