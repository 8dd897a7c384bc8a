import type { PresetFee } from '@onboarding-kit/core';
import { newestFirst, type PresetFeeRepository, presetFeeIdTaken } from '@onboarding-kit/core/adapter';
import { errAsync, okAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';

export type OwnedPresetFee = { readonly managerId: string; readonly fee: PresetFee };

/** Preset fees are not part of any transaction: plain synchronous map operations are atomic here. */
export const createMemoryPresetFeeRepository = (fees: Map<string, OwnedPresetFee>): PresetFeeRepository => ({
  listByManager: (managerId) =>
    okAsync(
      [...fees.values()]
        .flatMap((owned) => (owned.managerId === managerId ? [owned.fee] : []))
        .sort(newestFirst),
    ),
  findById: (managerId, presetFeeId) => {
    const owned = fees.get(presetFeeId);
    return okAsync(owned?.managerId === managerId ? owned.fee : null);
  },
  insert: (managerId, fee) => {
    if (fees.has(fee.id)) return errAsync(presetFeeIdTaken(fee.id));
    fees.set(fee.id, { managerId, fee: frozenClone(fee) });
    return okAsync(undefined);
  },
});
