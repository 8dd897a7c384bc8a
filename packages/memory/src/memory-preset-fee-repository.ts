import { type PresetFee, type PresetFeeRepository, storageUnavailable } from '@onboarding-kit/core';
import { errAsync, okAsync } from 'neverthrow';

type OwnedPresetFee = { readonly managerId: string; readonly fee: PresetFee };

const newestFirst = (a: PresetFee, b: PresetFee): number => {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
};

/** Preset fees are not part of any transaction: plain synchronous map operations are atomic here. */
export const createMemoryPresetFeeRepository = (fees: Map<string, OwnedPresetFee>): PresetFeeRepository => ({
  listByManager: (managerId) =>
    okAsync(
      [...fees.values()]
        .filter((owned) => owned.managerId === managerId)
        .map((owned) => structuredClone(owned.fee))
        .sort(newestFirst),
    ),
  findById: (managerId, presetFeeId) => {
    const owned = fees.get(presetFeeId);
    return okAsync(owned?.managerId === managerId ? structuredClone(owned.fee) : null);
  },
  insert: (managerId, fee) => {
    if (fees.has(fee.id)) {
      return errAsync(
        storageUnavailable('memory')(new Error(`A preset fee with id ${fee.id} already exists`)),
      );
    }
    fees.set(fee.id, { managerId, fee: structuredClone(fee) });
    return okAsync(undefined);
  },
});

export type { OwnedPresetFee };
