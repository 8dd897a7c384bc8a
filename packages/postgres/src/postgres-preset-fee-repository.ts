import {
  type FeeConfiguration,
  type FeeDirection,
  isUuid,
  type PresetFee,
  type PresetFeeRepository,
  presetFeeIdTaken,
  storageUnavailable,
} from '@onboarding-kit/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { isoTimestampSql } from './iso-timestamp-sql.js';
import type { KitTables } from './kit-tables.js';
import { preparedStatement, type SqlSession } from './sql-session.js';

const unavailable = storageUnavailable('postgres');

type PresetFeeRow = {
  id: string;
  fee_direction: FeeDirection;
  fiat_fee_group: string;
  blockchain_fee_group: string;
  configuration: FeeConfiguration;
  created_at: string;
};

const toPresetFee = (row: PresetFeeRow): PresetFee => ({
  id: row.id,
  feeDirection: row.fee_direction,
  fiatFeeGroup: row.fiat_fee_group,
  blockchainFeeGroup: row.blockchain_fee_group,
  configuration: row.configuration,
  createdAt: row.created_at,
});

/** Preset fees on PostgreSQL; a manager's list is read in index order (`preset_fees_by_manager`). */
export const createPostgresPresetFeeRepository = (db: SqlSession, tables: KitTables): PresetFeeRepository => {
  // created_at leaves as ISO text: a manager's list is ~1,000 rows, and a Date parse plus a
  // toISOString per row is most of the Node time of a list.
  const columns = `id, fee_direction, fiat_fee_group, blockchain_fee_group, configuration,
    ${isoTimestampSql('created_at')} AS created_at`;
  const listOfManager = preparedStatement(
    // Qualified: a bare `created_at` in ORDER BY would name the text output column and sort.
    `SELECT ${columns} FROM ${tables.presetFees} f WHERE f.manager_id = $1 ORDER BY f.created_at DESC, f.id DESC`,
  );
  return {
    listByManager: (managerId) =>
      ResultAsync.fromPromise(db.query<PresetFeeRow>(listOfManager([managerId])), unavailable).map((result) =>
        result.rows.map(toPresetFee),
      ),

    findById: (managerId, presetFeeId) =>
      isUuid(presetFeeId)
        ? ResultAsync.fromPromise(
            db.query<PresetFeeRow>(
              `SELECT ${columns} FROM ${tables.presetFees} WHERE id = $1 AND manager_id = $2`,
              [presetFeeId, managerId],
            ),
            unavailable,
          ).map((result) => {
            const row = result.rows[0];
            return row === undefined ? null : toPresetFee(row);
          })
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
