import type { PresetFee } from '@onboarding-kit/core';
import {
  isUuid,
  type PresetFeeRepository,
  presetFeeIdTaken,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

/** Preset fees on PostgreSQL; a manager's list is read in index order (`preset_fees_by_manager`). */
export const createPostgresPresetFeeRepository = (db: SqlSession, tables: KitTables): PresetFeeRepository => {
  // Each row leaves PostgreSQL in the shape of a PresetFee (wire names, created_at as ISO text), so
  // node-postgres's row object is the fee itself: a manager's list is ~1,000 rows, and a second
  // object, a Date parse and a toISOString per row were most of the Node time of a list.
  const columns = `id, fee_direction AS "feeDirection", fiat_fee_group AS "fiatFeeGroup",
    blockchain_fee_group AS "blockchainFeeGroup", configuration, ${isoTimestampSql('created_at')} AS "createdAt"`;
  const listOfManager = preparedStatement(
    // Ordered by the table's columns (the index's), not by the text output column `createdAt`.
    `SELECT ${columns} FROM ${tables.presetFees} f WHERE f.manager_id = $1 ORDER BY f.created_at DESC, f.id DESC`,
  );
  return {
    // The rows are taken inside the promise, not by a neverthrow `map`: `map` awaits through a
    // generator, and with ~1,000 rows that made young-generation GC keep and promote most of each
    // list (5–7 ms scavenges, p99 about 10 ms instead of 3.5 ms; docs/performance.md).
    listByManager: (managerId) =>
      ResultAsync.fromPromise(
        db.query<PresetFee>(listOfManager([managerId])).then((result) => result.rows),
        unavailable,
      ),

    findById: (managerId, presetFeeId) =>
      isUuid(presetFeeId)
        ? ResultAsync.fromPromise(
            db.query<PresetFee>(
              `SELECT ${columns} FROM ${tables.presetFees} WHERE id = $1 AND manager_id = $2`,
              [presetFeeId, managerId],
            ),
            unavailable,
          ).map((result) => result.rows[0] ?? null)
        : okAsync(null),

    // An existing id is refused, never overwritten (an overwrite could move a fee to another manager):
    // a host seeding fixed fees at every start checks with findById first, as the demo does.
    insert: (managerId, fee) =>
      ResultAsync.fromPromise(
        db.query(
          `INSERT INTO ${tables.presetFees}
             (id, manager_id, fee_direction, fiat_fee_group, blockchain_fee_group, configuration, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (id) DO NOTHING`,
          [
            fee.id,
            managerId,
            fee.feeDirection,
            fee.fiatFeeGroup,
            fee.blockchainFeeGroup,
            JSON.stringify(fee.configuration),
            fee.createdAt,
          ],
        ),
        unavailable,
      ).andThen((result) =>
        result.rowCount === 1 ? okAsync(undefined) : errAsync(presetFeeIdTaken(fee.id)),
      ),
  };
};
