import {
  type IdempotencyClaim,
  type IdempotencyClaimRef,
  type IdempotencyClaimRequest,
  type IdempotencyLockLost,
  type IdempotencyStore,
  REDACTED_FINGERPRINT,
  type RecordedOutcome,
  type StorageUnavailable,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, ok, ResultAsync } from 'neverthrow';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession, statementsPerSchema } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** A write that named a token no longer holding the key (taken over, completed or released). */
export const lockLost = ({ scope, key }: IdempotencyClaimRef): IdempotencyLockLost => ({
  type: 'IdempotencyLockLost',
  scope,
  key,
});

type ClaimRow = {
  claimed: boolean;
  fingerprint: string;
  state: 'IN_PROGRESS' | 'COMPLETED' | 'QUOTA_EXCEEDED';
  outcome: RecordedOutcome | null;
  /** A Date, or a string when the host's pg type parsers say so. */
  oldest_live: Date | string | null;
};

/**
 * The claim can only miss the row it conflicted with when that row was committed after this
 * statement's snapshot (or purged meanwhile): running the statement again then sees it.
 */
const maxClaimAttempts = 5;

/** `REDACTED_FINGERPRINT` as an SQL literal: a redacted record matches every fingerprint. */
const redactedFingerprint = `'${REDACTED_FINGERPRINT.replaceAll("'", "''")}'`;

/** The store's prepared statements, built once per schema. */
const idempotencyStatements = statementsPerSchema((tables) => {
  // $8 owner, $9 the owner's quota of live records (NULL: no bound). The quota only gates a key
  // that has no record yet: a replay or a takeover never adds one. The owner's stored records
  // (`idempotency_owner_records`, kept by triggers, never below the live ones) answer it at the
  // cost of a few index rows while they are below the quota; only then are the live records
  // counted, at most $9 of them. CASE decides the order: the count is never run for a claim that does not need it.
  const claimStatement = `WITH stored AS (
      SELECT coalesce(sum(records), 0) AS n FROM ${tables.idempotencyOwnerRecords} WHERE owner = $8
    ), live AS (
      SELECT count(*) AS n FROM (
        SELECT 1 FROM ${tables.idempotency}
        WHERE owner = $8 AND created_at >= $6 LIMIT coalesce($9::integer, 0)) AS owned
    ), known AS (
      SELECT EXISTS (SELECT 1 FROM ${tables.idempotency} WHERE scope = $1 AND idempotency_key = $2) AS exists
    ), under_quota AS (
      SELECT CASE
        WHEN $9::integer IS NULL THEN true
        WHEN (SELECT n FROM stored) < $9::integer THEN true
        WHEN (SELECT exists FROM known) THEN true
        ELSE (SELECT n FROM live) < $9::integer
      END AS ok
    ), claimed AS (
      INSERT INTO ${tables.idempotency} AS record
        (owner, scope, idempotency_key, fingerprint, token, state, created_at, locked_at)
      SELECT $8, $1, $2, $3, $4, 'IN_PROGRESS', $5, $5
      WHERE (SELECT ok FROM under_quota)
      ON CONFLICT (scope, idempotency_key) DO UPDATE SET
        owner = excluded.owner, fingerprint = excluded.fingerprint, token = excluded.token,
        state = 'IN_PROGRESS', outcome = NULL,
        created_at = excluded.created_at, locked_at = excluded.locked_at, completed_at = NULL
      WHERE record.created_at < $6
        OR (record.state = 'IN_PROGRESS' AND record.locked_at < $7
          AND record.fingerprint IN (excluded.fingerprint, ${redactedFingerprint}))
      RETURNING fingerprint, state
    )
    SELECT true AS claimed, fingerprint, state, NULL::json AS outcome, NULL::timestamptz AS oldest_live
    FROM claimed
    UNION ALL
    SELECT false, fingerprint, state, outcome, NULL FROM ${tables.idempotency}
    WHERE scope = $1 AND idempotency_key = $2 AND NOT EXISTS (SELECT 1 FROM claimed)
    UNION ALL
    SELECT false, '', 'QUOTA_EXCEEDED', NULL,
      (SELECT min(created_at) FROM ${tables.idempotency} WHERE owner = $8 AND created_at >= $6)
    WHERE NOT (SELECT ok FROM under_quota)`;

  const claimRecord = preparedStatement(claimStatement);
  const completeRecord = preparedStatement(
    `UPDATE ${tables.idempotency}
     SET state = 'COMPLETED', outcome = $4::json, completed_at = $5
     WHERE scope = $1 AND idempotency_key = $2 AND token = $3 AND state = 'IN_PROGRESS'`,
  );
  const renewLock = preparedStatement(
    `UPDATE ${tables.idempotency} SET locked_at = $4
     WHERE scope = $1 AND idempotency_key = $2 AND token = $3 AND state = 'IN_PROGRESS'`,
  );
  return { claimRecord, completeRecord, renewLock };
});

/**
 * Idempotency records on PostgreSQL (decisions §5). A claim is one atomic statement: insert the
 * record, or take over an expired one (older than the record TTL) or an abandoned one (a lock older
 * than the lock TTL, for the same request), or else report the record that holds the key.
 * Every write after the claim names the claim's token, so a holder whose lock was taken over can
 * neither complete nor release the new holder's record.
 */
export const createPostgresIdempotencyStore = (db: SqlSession, tables: KitTables): IdempotencyStore => {
  const { claimRecord, completeRecord, renewLock } = idempotencyStatements(tables);
  const claimOnce = (request: IdempotencyClaimRequest) => {
    const now = request.now.getTime();
    // Timestamps go as ISO text: node-postgres formats a Date parameter in local time with its own
    // code, a few microseconds each, three of them in every claim.
    return db.query<ClaimRow>(
      claimRecord([
        request.scope,
        request.key,
        request.fingerprint,
        request.token,
        request.now.toISOString(),
        new Date(now - request.recordTtlMs).toISOString(),
        new Date(now - request.lockTtlMs).toISOString(),
        request.owner,
        request.maxLiveRecordsPerOwner,
      ]),
    );
  };

  const claim = async (request: IdempotencyClaimRequest): Promise<IdempotencyClaim> => {
    for (let attempt = 1; ; attempt += 1) {
      const row = (await claimOnce(request)).rows[0];
      if (row !== undefined) return toClaim(row, request);
      if (attempt >= maxClaimAttempts) throw new Error('idempotency claim found no record after retries');
    }
  };

  return {
    claim: (request) => ResultAsync.fromPromise(claim(request), unavailable),

    complete: (ref: IdempotencyClaimRef, outcome: RecordedOutcome, now: Date) =>
      // Serializing the opaque body happens inside the promise: a body JSON cannot hold (a BigInt,
      // a cycle) becomes an Err like any other failure to store, never a throw.
      ResultAsync.fromPromise(
        (async () =>
          db.query(
            completeRecord([ref.scope, ref.key, ref.token, JSON.stringify(outcome), now.toISOString()]),
          ))(),
        unavailable,
      ).andThen((result) =>
        result.rowCount === 1
          ? ok(undefined)
          : err<void, StorageUnavailable | IdempotencyLockLost>(lockLost(ref)),
      ),

    renew: (ref: IdempotencyClaimRef, now: Date) =>
      ResultAsync.fromPromise(db.query(renewLock([ref.scope, ref.key, ref.token, now])), unavailable).andThen(
        (result) =>
          result.rowCount === 1
            ? ok(undefined)
            : err<void, StorageUnavailable | IdempotencyLockLost>(lockLost(ref)),
      ),

    release: (ref: IdempotencyClaimRef) =>
      ResultAsync.fromPromise(
        db.query(
          `DELETE FROM ${tables.idempotency}
           WHERE scope = $1 AND idempotency_key = $2 AND token = $3 AND state = 'IN_PROGRESS'`,
          [ref.scope, ref.key, ref.token],
        ),
        unavailable,
      ).map(() => undefined),

    purgeExpired: (olderThan: Date, batchSize: number) => {
      // Short batches keep each delete's locks and WAL small; SKIP LOCKED leaves a record that a
      // running command is completing to the next purge.
      const limit = Math.max(1, Math.floor(batchSize));
      const purge = async (): Promise<number> => {
        let total = 0;
        for (;;) {
          const result = await db.query(
            `DELETE FROM ${tables.idempotency} WHERE (scope, idempotency_key) IN (
               SELECT scope, idempotency_key FROM ${tables.idempotency}
               WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
            [olderThan, limit],
          );
          const deleted = result.rowCount ?? 0;
          total += deleted;
          if (deleted < limit) return total;
        }
      };
      return ResultAsync.fromPromise(purge(), unavailable);
    },

    // A text search over the scopes and stored answers: rare (one redaction), and the records are
    // purged after their TTL, so the table stays small enough to scan. The rows are locked and
    // rewritten, fingerprint and answer in one UPDATE, and kept: a retry of their key replays the
    // rewritten answer. A holder still running keeps its token and completes as it would have.
    rewriteForClient: (clientId, rewrite, documentNames = []) =>
      ResultAsync.fromPromise(
        db.atomically(async (tx) => {
          const found = await tx.query<{
            scope: string;
            idempotency_key: string;
            outcome: RecordedOutcome | null;
          }>(
            `SELECT scope, idempotency_key, outcome FROM ${tables.idempotency}
             WHERE strpos(lower(scope), $1) > 0
               OR (state = 'COMPLETED' AND strpos(lower(outcome::text), $1) > 0)
               OR (state = 'COMPLETED' AND EXISTS (
                     SELECT 1 FROM unnest($2::text[]) AS name WHERE strpos(outcome::text, name) > 0))
             FOR UPDATE`,
            // A name as a whole JSON string, as the outcome's text (written by JSON.stringify) holds it.
            [clientId.toLowerCase(), documentNames.map((name) => JSON.stringify(name))],
          );
          for (const row of found.rows) {
            await tx.query(
              `UPDATE ${tables.idempotency} SET fingerprint = $3, outcome = $4::json
               WHERE scope = $1 AND idempotency_key = $2`,
              [
                row.scope,
                row.idempotency_key,
                REDACTED_FINGERPRINT,
                row.outcome === null ? null : JSON.stringify(rewrite(row.outcome)),
              ],
            );
          }
        }),
        unavailable,
      ).map(() => undefined),
  };
};

const toClaim = (row: ClaimRow, request: IdempotencyClaimRequest): IdempotencyClaim => {
  if (row.claimed) return { type: 'Claimed' };
  if (row.state === 'QUOTA_EXCEEDED') {
    const oldest = row.oldest_live === null ? request.now.getTime() : new Date(row.oldest_live).getTime();
    // A record is expired once strictly older than the TTL: 1 ms after it reaches it.
    return { type: 'QuotaExceeded', retryAfterMs: oldest + request.recordTtlMs + 1 - request.now.getTime() };
  }
  // A redacted record's fingerprint is no digest: it matches every request.
  if (row.fingerprint !== request.fingerprint && row.fingerprint !== REDACTED_FINGERPRINT) {
    return { type: 'KeyReused' };
  }
  switch (row.state) {
    case 'IN_PROGRESS':
      return { type: 'InProgress' };
    case 'COMPLETED':
      // A CHECK constraint guarantees a completed record its outcome.
      if (row.outcome === null) throw new Error('a completed idempotency record without its outcome');
      return { type: 'Replay', outcome: row.outcome };
  }
};
