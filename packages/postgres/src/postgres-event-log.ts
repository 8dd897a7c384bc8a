import type { ClientEvent } from '@onboarding-kit/core';
import { type EventLog, storageUnavailable } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** The log's statements, built once per schema. */
const eventLogStatements = statementsPerSchema((tables) => {
  const appendEvents = preparedStatement(
    `INSERT INTO ${tables.events} (event_id, manager_id, client_id, type, created_at, body)
     SELECT e.event_id, $1, e.client_id, e.type, e.created_at, e.body
     FROM json_to_recordset($2::json)
       AS e(ordinal integer, event_id uuid, client_id uuid, type text, created_at timestamptz, body json)
     ORDER BY e.ordinal`,
  );
  const listEvents = preparedStatement(
    `SELECT xid, position, body FROM ${tables.events}
     WHERE manager_id = $1 AND (xid, position) > ($2::bigint, $3::bigint)
       AND xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
       AND ($4::text IS NULL OR type = $4) AND ($5::uuid IS NULL OR client_id = $5)
     ORDER BY xid, position LIMIT $6`,
  );
  const findEvents = preparedStatement(
    `SELECT manager_id, client_id, body FROM ${tables.events} WHERE event_id = ANY($1::uuid[])`,
  );
  const selectClientEvents = preparedStatement(
    `SELECT event_id, body FROM ${tables.events} WHERE client_id = $1 ORDER BY xid, position FOR UPDATE`,
  );
  const rewriteEvents = preparedStatement(
    `UPDATE ${tables.events} e SET body = r.body
     FROM json_to_recordset($1::json) AS r(event_id uuid, body json) WHERE e.event_id = r.event_id`,
  );
  return { appendEvents, listEvents, findEvents, selectClientEvents, rewriteEvents };
});

/**
 * The outbox on PostgreSQL, read without any lock on the writers: every event records the id of
 * the transaction that wrote it (its `xid` column). A reader returns only events of transactions
 * older than its snapshot's xmin — each of those has finished, committed or not — in (transaction,
 * position) order, and its cursor is that pair. A transaction still running has an id at or above
 * that xmin, above every cursor handed out so far: its events come after them, never skipped. The
 * price: events wait for every older transaction of the database to end (a long one delays them).
 */
export const createPostgresEventLog = (db: SqlSession, tables: KitTables): EventLog => {
  const { appendEvents, listEvents, findEvents, selectClientEvents, rewriteEvents } =
    eventLogStatements(tables);
  return {
    append: (events) => {
      if (events.length === 0) return okAsync(undefined);
      const byManager = new Map<string, (typeof events)[number][]>();
      for (const logged of events) {
        const ofManager = byManager.get(logged.managerId);
        if (ofManager === undefined) byManager.set(logged.managerId, [logged]);
        else ofManager.push(logged);
      }
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
    listForManager: ({ managerId, afterPosition = '0.0', limit, type, clientId }) => {
      // A position of this log is `<transaction>.<position>`, two bigints (core's cursor codec checks
      // both before a cursor reaches here); another shape starts from the beginning.
      const [afterXid = '0', afterSequence = '0'] = afterPosition.includes('.')
        ? afterPosition.split('.')
        : ['0', '0'];
      return ResultAsync.fromPromise(
        db.query<{ xid: string; position: string; body: ClientEvent }>(
          listEvents([
            managerId,
            afterXid,
            afterSequence,
            type ?? null,
            clientId ?? null,
            Math.max(1, Math.floor(limit)),
          ]),
        ),
        unavailable,
      ).map((result) =>
        result.rows.map((row) => ({ position: `${row.xid}.${row.position}`, event: row.body })),
      );
    },
    findByIds: (eventIds) =>
      eventIds.length === 0
        ? okAsync([])
        : ResultAsync.fromPromise(
            db.query<{ manager_id: string; client_id: string; body: ClientEvent }>(findEvents([eventIds])),
            unavailable,
          ).map((result) =>
            result.rows.map((row) => ({
              managerId: row.manager_id,
              clientId: row.client_id,
              event: row.body,
            })),
          ),
    rewriteForClient: (clientId, rewrite) =>
      ResultAsync.fromPromise(
        db.atomically(async (tx) => {
          const found = await tx.query<{ event_id: string; body: ClientEvent }>(
            selectClientEvents([clientId]),
          );
          if (found.rows.length === 0) return;
          const rows = found.rows.map((row) => ({ event_id: row.event_id, body: rewrite(row.body) }));
          await tx.query(rewriteEvents([JSON.stringify(rows)]));
        }),
        unavailable,
      ),
  };
};
