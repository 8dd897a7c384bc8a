import type { ResultAsync } from 'neverthrow';
import type { PresetFeeIdTaken, StorageUnavailable } from '../errors.js';
import type { PresetFee } from '../schemas/preset-fee.js';

/** Read side of preset fees for managers, plus the write side hosts use for seeding and admin. */
export interface PresetFeeRepository {
  /** A manager's fees, newest `createdAt` first, ties by id descending. */
  listByManager(managerId: string): ResultAsync<PresetFee[], StorageUnavailable>;
  findById(managerId: string, presetFeeId: string): ResultAsync<PresetFee | null, StorageUnavailable>;
  /** Stores a new fee; an id that exists (for any manager) is `PresetFeeIdTaken` and changes nothing. */
  insert(managerId: string, fee: PresetFee): ResultAsync<void, StorageUnavailable | PresetFeeIdTaken>;
}
