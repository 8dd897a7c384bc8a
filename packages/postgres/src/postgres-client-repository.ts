import type { ClientStatus, ReviewQueueStatus, Screening, StatusHistoryEntry } from '@onboarding-kit/core';
import {
  type ClientListQuery,
  type ClientRepository,
  isUuid,
  REDACTED_VALUE,
  type ReviewQueueFilter,
  type StaleClientState,
  type StorageUnavailable,
  type StoredClient,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, errAsync, ok, okAsync, ResultAsync } from 'neverthrow';
import {
  type ClientRow,
  childRowsJson,
  clientSelectList,
  clientValues,
  historyValues,
  insertChildRowsStatement,
  reviewValues,
  type StatusHistoryRow,
  screeningValue,
  toStatusHistoryEntry,
  toStoredClient,
} from './client-rows.js';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** CTEs that delete the child rows (representatives, bank accounts, wallets) of the row in CTE `client`. */
const childRowsDeleted = (tables: KitTables): string =>
  `old_representatives AS (
      DELETE FROM ${tables.representatives} WHERE client_id IN (SELECT id FROM client)
    ), old_bank_accounts AS (
      DELETE FROM ${tables.bankAccounts} WHERE client_id IN (SELECT id FROM client)
    ), old_wallets AS (
      DELETE FROM ${tables.wallets} WHERE client_id IN (SELECT id FROM client)
    )`;

/**
 * A waiting status as a literal of the statement, never a parameter: the queue's partial indexes
 * hold only waiting clients, and the planner uses one only when it can see that the status is one
 * of theirs. Written from this closed map, never from input.
 */
const reviewQueueStatusLiteral: Readonly<Record<ReviewQueueStatus, string>> = {
  ONBOARDING_UNDER_REVIEW: "'ONBOARDING_UNDER_REVIEW'",
  WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: "'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE'",
};
const everyReviewQueueStatus = Object.values(reviewQueueStatusLiteral).join(', ');

/**
 * The turn a client of manager `manager` coming to wait in status `status` (parameters) takes
 * (`ReviewQueuePosition`): the head's turn or one past its manager's last, whichever is later; 0 in
 * a status that is not a waiting one. Each of the two reads one entry of a partial index (the
 * literal list lets the planner see the status is a waiting one).
 */
const turnTaken = (tables: KitTables, status: string, manager: string): string =>
  `GREATEST(
      (SELECT min(q.review_turn) FROM ${tables.clients} q
       WHERE q.status = ${status} AND q.status IN (${everyReviewQueueStatus})),
      (SELECT max(q.review_turn) + 1 FROM ${tables.clients} q
       WHERE q.manager_id = ${manager} AND q.status = ${status} AND q.status IN (${everyReviewQueueStatus})),
      0)`;

/** The queue's filters as conditions on `c`, their values appended to `values`. */
const reviewQueueConditions = (filter: ReviewQueueFilter, values: unknown[]): string[] => {
  const conditions: string[] = [];
  if (filter.clientType !== undefined) {
    values.push(filter.clientType);
    conditions.push(`c.client_type = $${values.length}`);
  }
  if (filter.screening === 'NONE') conditions.push('c.screening IS NULL');
  else if (filter.screening !== undefined) {
    values.push(filter.screening);
    conditions.push(`c.screening->>'status' = $${values.length}`);
  }
  if (filter.assigneeId === null) conditions.push('c.assignee_id IS NULL');
  else if (filter.assigneeId !== undefined) {
    values.push(filter.assigneeId);
    conditions.push(`c.assignee_id = $${values.length}`);
  }
  return conditions;
};

/** The repository's prepared statements, built once per schema. */
const clientStatements = statementsPerSchema((tables) => {
  const selectClient = preparedStatement(
    `SELECT ${clientSelectList(tables, 'c')} FROM ${tables.clients} c WHERE c.id = $1`,
  );
  // The lock alone, the client read by the next statement. A `SELECT … FOR UPDATE` that waits for
  // another transaction's lock reads the row as that transaction left it, but the rest of the
  // statement (the child rows' subqueries) in the snapshot it began with: the child rows of before
  // the write it waited for, which the command would then write back (a lost update).
  const lockClient = preparedStatement(`SELECT id FROM ${tables.clients} WHERE id = $1 FOR UPDATE`);
  // Replaces the client only if it still has the expected status, and drops its child rows in the
  // same statement; the new child rows go in by a second statement (a delete and an insert of the
  // same primary key in one statement would race).
  const updateStatement = `WITH client AS (
      UPDATE ${tables.clients} SET manager_id = $2, client_type = $3, status = $4, company = $5, company_directors_and_ubos = $6,
        individual_profile = $7, individual_source_of_funds = $8, onboarding_resubmission_reason = $9,
        created_at = $10, updated_at = $11, deleted_at = $12,
        resubmission_requirements = $14::jsonb, terms_acceptance = $15::jsonb, screening = $16::jsonb,
        review_turn = CASE WHEN $4 = $13 THEN review_turn ELSE ${turnTaken(tables, '$4', '$2')} END
      WHERE id = $1 AND status = $13
      RETURNING id
    ), ${childRowsDeleted(tables)}
    SELECT count(*)::int AS updated FROM client`;
  const insertChildren = preparedStatement(insertChildRowsStatement(tables));
  // A create: the client row ($1, $10..$23), its child rows and its first history entry.
  const insertClient = preparedStatement(
    insertChildRowsStatement(
      tables,
      `client AS (
      INSERT INTO ${tables.clients} (id, manager_id, client_type, status, company, company_directors_and_ubos,
        individual_profile, individual_source_of_funds, onboarding_resubmission_reason,
        created_at, updated_at, deleted_at, resubmission_requirements, terms_acceptance, screening, review_turn)
      VALUES ($1, $10, $11, $12, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, $17,
        $18::timestamptz, $19::timestamptz, $20::timestamptz, $21::jsonb, $22::jsonb, $23::jsonb,
        ${turnTaken(tables, '$12', '$10')})
    )`,
    ),
  );
  const updateClient = preparedStatement(updateStatement);
  // Redaction: the client's onboarding columns emptied, its child rows and history reasons gone.
  const redactClient = preparedStatement(`WITH client AS (
      UPDATE ${tables.clients} SET company = NULL, company_directors_and_ubos = NULL,
        individual_profile = NULL, individual_source_of_funds = NULL,
        onboarding_resubmission_reason = NULL, resubmission_requirements = NULL, terms_acceptance = NULL, screening = NULL,
        updated_at = $2, redacted_at = $3
      WHERE id = $1
      RETURNING id
    ), ${childRowsDeleted(tables)}
    UPDATE ${tables.statusHistory} SET reason = $4
    WHERE client_id IN (SELECT id FROM client) AND reason IS NOT NULL`);
  const selectDeletedBefore = preparedStatement(
    `SELECT ${clientSelectList(tables, 'c')} FROM ${tables.clients} c
     WHERE c.status = 'DELETED' AND c.redacted_at IS NULL AND c.deleted_at < $1
     ORDER BY c.deleted_at, c.id LIMIT $2`,
  );
  // The nil UUID sorts before every client: the first page.
  const selectScreened = preparedStatement(
    `SELECT ${clientSelectList(tables, 'c')} FROM ${tables.clients} c
     WHERE c.id > $1 AND c.screening->>'status' IN ('CLEAR', 'POSSIBLE_MATCH')
     ORDER BY c.id LIMIT $2`,
  );
  const updateScreening = preparedStatement(
    `UPDATE ${tables.clients} SET screening = $2::jsonb, updated_at = $3 WHERE id = $1`,
  );
  const updateAssignment = preparedStatement(
    `UPDATE ${tables.clients} SET assignee_id = $2, assigned_at = $3, updated_at = $4 WHERE id = $1`,
  );
  return {
    selectClient,
    lockClient,
    updateClient,
    insertClient,
    insertChildren,
    redactClient,
    selectDeletedBefore,
    selectScreened,
    updateScreening,
    updateAssignment,
  };
});

/**
 * Clients on PostgreSQL. Each method is one SQL statement, except `update` (two): `insert` writes
 * the client, its child rows and its first history entry.
 */
export const createPostgresClientRepository = (db: SqlSession, tables: KitTables): ClientRepository => {
  const {
    selectClient,
    lockClient,
    updateClient,
    insertClient,
    insertChildren,
    redactClient,
    selectDeletedBefore,
    selectScreened,
    updateScreening,
    updateAssignment,
  } = clientStatements(tables);
  const findById = (clientId: string): ResultAsync<StoredClient | null, StorageUnavailable> =>
    isUuid(clientId)
      ? ResultAsync.fromPromise(db.query<ClientRow>(selectClient([clientId])), unavailable).map((result) => {
          const row = result.rows[0];
          return row === undefined ? null : toStoredClient(row);
        })
      : okAsync(null);

  return {
    findById,
    findForUpdate: (clientId) =>
      isUuid(clientId)
        ? ResultAsync.fromPromise(db.query(lockClient([clientId])), unavailable).andThen((locked) =>
            locked.rowCount === 0 ? okAsync(null) : findById(clientId),
          )
        : okAsync(null),

    list: (query: ClientListQuery) => {
      const values: unknown[] = [query.managerId];
      const conditions = ['c.manager_id = $1'];
      if (query.status !== undefined) {
        values.push(query.status);
        conditions.push(`c.status = $${values.length}`);
      }
      if (query.clientType !== undefined) {
        values.push(query.clientType);
        conditions.push(`c.client_type = $${values.length}`);
      }
      // `after` is decoded by core's cursor codec: an instant within timestamptz and a UUID.
      if (query.after !== undefined) {
        values.push(query.after.createdAt, query.after.id);
        conditions.push(
          `(c.created_at, c.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`,
        );
      }
      values.push(query.limit);
      const text = `SELECT ${clientSelectList(tables, 'c')} FROM ${tables.clients} c
        WHERE ${conditions.join(' AND ')}
        ORDER BY c.created_at DESC, c.id DESC LIMIT $${values.length}`;
      // Rows become clients inside the promise: a neverthrow `map` over a large result made the
      // young-generation GC keep and promote it (see the preset fee repository).
      return ResultAsync.fromPromise(
        db.query<ClientRow>(text, values).then((result) => result.rows.map(toStoredClient)),
        unavailable,
      );
    },

    statusHistory: (clientId) =>
      isUuid(clientId)
        ? ResultAsync.fromPromise(
            db.query<StatusHistoryRow>(
              `SELECT from_status, to_status, reason, actor, at FROM ${tables.statusHistory}
               WHERE client_id = $1 ORDER BY id`,
              [clientId],
            ),
            unavailable,
          ).map((result) => result.rows.map(toStatusHistoryEntry))
        : okAsync([]),

    insert: (client: StoredClient, entry: StatusHistoryEntry) =>
      ResultAsync.fromPromise(
        db
          .query(
            insertClient([
              client.id,
              ...childRowsJson(client),
              ...historyValues(entry),
              ...clientValues(client).slice(1),
              ...reviewValues(client),
              screeningValue(client),
            ]),
          )
          .then(() => undefined),
        unavailable,
      ),

    reviewQueue: (query) => {
      const values: unknown[] = [];
      const conditions = [
        `c.status = ${reviewQueueStatusLiteral[query.status]}`,
        ...reviewQueueConditions(query, values),
      ];
      // `after` is decoded by core's cursor codec: an integer turn, an instant and a UUID.
      if (query.after !== undefined) {
        values.push(query.after.turn, query.after.createdAt, query.after.id);
        conditions.push(
          `(c.review_turn, c.created_at, c.id) > ($${values.length - 2}::int, $${values.length - 1}::timestamptz, $${values.length}::uuid)`,
        );
      }
      values.push(Math.max(0, Math.floor(query.limit)));
      const text = `SELECT c.review_turn, ${clientSelectList(tables, 'c')} FROM ${tables.clients} c
        WHERE ${conditions.join(' AND ')}
        ORDER BY c.review_turn, c.created_at, c.id LIMIT $${values.length}`;
      return ResultAsync.fromPromise(
        db
          .query<ClientRow & { review_turn: number }>(text, values)
          .then((result) =>
            result.rows.map((row) => ({ client: toStoredClient(row), turn: row.review_turn })),
          ),
        unavailable,
      );
    },

    countReviewQueue: (filter) => {
      const values: unknown[] = [];
      const conditions = [
        `c.status IN (${everyReviewQueueStatus})`,
        ...reviewQueueConditions(filter, values),
      ];
      const text = `SELECT c.status, count(*)::int AS waiting FROM ${tables.clients} c
        WHERE ${conditions.join(' AND ')} GROUP BY c.status`;
      return ResultAsync.fromPromise(
        db.query<{ status: ReviewQueueStatus; waiting: number }>(text, values),
        unavailable,
      ).map((result) => {
        const counts: Record<ReviewQueueStatus, number> = {
          ONBOARDING_UNDER_REVIEW: 0,
          WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 0,
        };
        for (const row of result.rows) counts[row.status] = row.waiting;
        return counts;
      });
    },

    // SKIP LOCKED: a client another transaction holds (assigning it, or moving it) is passed over,
    // and one it assigned meanwhile no longer matches `assignee_id IS NULL` when rechecked.
    lockNextUnassigned: (status, filter) => {
      const values: unknown[] = [];
      const conditions = [
        `c.status = ${reviewQueueStatusLiteral[status]}`,
        ...reviewQueueConditions({ ...filter, assigneeId: null }, values),
      ];
      // The lock, then the client read by the next statement (as `findForUpdate`, which says why).
      const text = `SELECT c.id FROM ${tables.clients} c
        WHERE ${conditions.join(' AND ')}
        ORDER BY c.review_turn, c.created_at, c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED`;
      return ResultAsync.fromPromise(db.query<{ id: string }>(text, values), unavailable).andThen(
        (result) => {
          const row = result.rows[0];
          return row === undefined ? okAsync(null) : findById(row.id);
        },
      );
    },

    updateAssignment: (clientId, assignee, updatedAt) =>
      isUuid(clientId)
        ? ResultAsync.fromPromise(
            db.query(
              updateAssignment([
                clientId,
                assignee?.complianceId ?? null,
                assignee?.assignedAt ?? null,
                updatedAt,
              ]),
            ),
            unavailable,
          ).map((result) => result.rowCount === 1)
        : okAsync(false),

    updateScreening: (clientId: string, screening: Screening | null, updatedAt: string) =>
      isUuid(clientId)
        ? ResultAsync.fromPromise(
            db.query(
              updateScreening([clientId, screening === null ? null : JSON.stringify(screening), updatedAt]),
            ),
            unavailable,
          ).map((result) => result.rowCount === 1)
        : okAsync(false),

    update: (client: StoredClient, expectedStatus: ClientStatus, entry: StatusHistoryEntry) => {
      const stale: StaleClientState = { type: 'StaleClientState', clientId: client.id, expectedStatus };
      if (!isUuid(client.id)) return errAsync(stale);
      // Outside a unit of work the two statements still commit together (`atomically`).
      const replaced = db.atomically(async (tx) => {
        const updated = await tx.query<{ updated: number }>(
          updateClient([
            ...clientValues(client),
            expectedStatus,
            ...reviewValues(client),
            screeningValue(client),
          ]),
        );
        if ((updated.rows[0]?.updated ?? 0) !== 1) return false;
        await tx.query(insertChildren([client.id, ...childRowsJson(client), ...historyValues(entry)]));
        return true;
      });
      return ResultAsync.fromPromise(replaced, unavailable).andThen((wasReplaced) =>
        wasReplaced ? ok(undefined) : err(stale),
      );
    },

    listDeletedBefore: (before, limit) =>
      ResultAsync.fromPromise(
        db
          .query<ClientRow>(selectDeletedBefore([before, Math.max(0, Math.floor(limit))]))
          .then((result) => result.rows.map(toStoredClient)),
        unavailable,
      ),

    listScreened: (after, limit) =>
      ResultAsync.fromPromise(
        db
          .query<ClientRow>(
            selectScreened([
              after !== null && isUuid(after) ? after : '00000000-0000-0000-0000-000000000000',
              Math.max(0, Math.floor(limit)),
            ]),
          )
          .then((result) => result.rows.map(toStoredClient)),
        unavailable,
      ),

    redact: (client) =>
      isUuid(client.id)
        ? ResultAsync.fromPromise(
            db.query(redactClient([client.id, client.updatedAt, client.redactedAt, REDACTED_VALUE])),
            unavailable,
          ).map(() => undefined)
        : okAsync(undefined),
  };
};
