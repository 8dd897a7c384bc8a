import { type ClientEvent, type EventLog, storageUnavailable } from '@onboarding-kit/core';
import { okAsync, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/**
 * The outbox on PostgreSQL. An append first takes a transaction-level advisory lock on the
 * manager, then draws positions: two commands of one manager append one after the other, and the
 * second draws its positions only once the first has committed or rolled back. A reader paging
 * by position therefore never skips an event of that manager that commits later. The lock is held
 * from the append (the last write of a command) to its commit.
 */
export const createPostgresEventLog = (db: SqlSession, tables: KitTables): EventLog => {
  const appendEvents = preparedStatement(
    `WITH manager_lock AS (SELECT pg_advisory_xact_lock(hashtextextended('onboarding-kit events ' || $1, 0)))
     INSERT INTO ${tables.events} (event_id, manager_id, client_id, type, created_at, body)
     SELECT e.event_id, $1, e.client_id, e.type, e.created_at, e.body
     FROM manager_lock, json_to_recordset($2::json)
       AS e(ordinal integer, event_id uuid, client_id uuid, type text, created_at timestamptz, body json)
     ORDER BY e.ordinal`,
  );
  const listEvents = preparedStatement(
    `SELECT position, body FROM ${tables.events}
     WHERE manager_id = $1 AND position > $2
       AND ($3::text IS NULL OR type = $3) AND ($4::uuid IS NULL OR client_id = $4)
     ORDER BY position LIMIT $5`,
  );
  return {
    append: (events) => {
      if (events.length === 0) return okAsync(undefined);
      const byManager = new Map<string, (typeof events)[number][]>();
      for (const logged of events)
        byManager.set(logged.managerId, [...(byManager.get(logged.managerId) ?? []), logged]);
      return ResultAsync.fromPromise(
        (async () => {
          for (const [managerId, logged] of byManager) {
            const rows = logged.map(({ clientId, event }, ordinal) => ({
              ordinal,
              event_id: event.id,
              client_id: clientId,
              type: event.type,
              created_at: event.createdAt,
              body: event,
            }));
            await db.query(appendEvents([managerId, JSON.stringify(rows)]));
          }
        })(),
        unavailable,
      );
    },
    listForManager: ({ managerId, afterPosition = 0, limit, type, clientId }) =>
      ResultAsync.fromPromise(
        db.query<{ position: string; body: ClientEvent }>(
          listEvents([
            managerId,
            afterPosition,
            type ?? null,
            clientId ?? null,
            Math.max(1, Math.floor(limit)),
          ]),
        ),
        unavailable,
      ).map((result) => result.rows.map((row) => ({ position: Number(row.position), event: row.body }))),
  };
};
