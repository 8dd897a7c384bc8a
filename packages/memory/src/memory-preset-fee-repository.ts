import { newestFirst, type PresetFeeRepository, presetFeeIdTaken } from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

export const createMemoryPresetFeeRepository = (access: TableAccess): PresetFeeRepository => ({
  listByManager: (managerId) =>
    access.read((tables) =>
      [...tables.presetFees.values()]
        .flatMap((owned) => (owned.managerId === managerId ? [owned.fee] : []))
        .sort(newestFirst),
    ),
  findById: (managerId, presetFeeId) =>
    access.read((tables) => {
      const owned = tables.presetFees.get(presetFeeId);
      return owned?.managerId === managerId ? owned.fee : null;
    }),
  insert: (managerId, fee) =>
    access.write((tables) => {
      if (tables.presetFees.get(fee.id) !== undefined) return err(presetFeeIdTaken(fee.id));
      tables.presetFees.set(fee.id, frozenClone({ managerId, fee }));
      return ok(undefined);
    }),
});
