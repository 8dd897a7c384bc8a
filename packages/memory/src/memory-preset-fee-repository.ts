import type { PresetFee } from '@onboarding-kit/core';
import { newestFirst, type PresetFeeRepository, presetFeeIdTaken } from '@onboarding-kit/core/adapter';
import { errAsync, okAsync } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';

type OwnedPresetFee = { readonly managerId: string; readonly fee: PresetFee };

/**
 * Preset fees are not part of any transaction: plain synchronous map operations are atomic here.
 * Each manager's list is kept sorted (newest first) as fees are inserted, like an index, so a read
 * neither filters nor sorts.
 */
export const createMemoryPresetFeeRepository = (fees: Map<string, OwnedPresetFee>): PresetFeeRepository => {
  const byManager = new Map<string, readonly PresetFee[]>();
  for (const { managerId, fee } of fees.values()) {
    byManager.set(managerId, [...(byManager.get(managerId) ?? []), fee].sort(newestFirst));
  }
  return {
    listByManager: (managerId) => okAsync([...(byManager.get(managerId) ?? [])]),
    findById: (managerId, presetFeeId) => {
      const owned = fees.get(presetFeeId);
      return okAsync(owned?.managerId === managerId ? owned.fee : null);
    },
    insert: (managerId, fee) => {
      if (fees.has(fee.id)) return errAsync(presetFeeIdTaken(fee.id));
      const stored = frozenClone(fee);
      fees.set(fee.id, { managerId, fee: stored });
      byManager.set(managerId, [...(byManager.get(managerId) ?? []), stored].sort(newestFirst));
      return okAsync(undefined);
    },
  };
};

export type { OwnedPresetFee };
