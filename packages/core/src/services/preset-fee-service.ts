import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { validateFeeConfiguration } from '../domain/fee-models.js';
import { type DomainError, type PresetFeeIdTaken, presetFeeNotFound } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { ManagerPrincipal } from '../principal.js';
import {
  type PresetFee,
  type PresetFeeListItem,
  type PresetFeeResponse,
  toPresetFeeListItem,
  toPresetFeeResponse,
} from '../schemas/preset-fee.js';
import { isUuid } from '../validation/parse-request.js';

export interface PresetFeeService {
  list(principal: ManagerPrincipal): ResultAsync<PresetFeeListItem[], DomainError>;
  get(principal: ManagerPrincipal, presetFeeId: string): ResultAsync<PresetFeeResponse, DomainError>;
  /** The write side (seeding, admin): validates the configuration, then stores. */
  add(managerId: string, fee: PresetFee): ResultAsync<PresetFee, DomainError | PresetFeeIdTaken>;
}

/** A manager's preset fees (decisions §6): the list names the direction `feeDirection`, one fee `transactionType`. */
export const createPresetFeeService = ({ ports }: KitContext): PresetFeeService => ({
  // andThen with a synchronous Result, not map: neverthrow's map awaits through a generator, and
  // with ~1,000 fees per list that made young-generation GC keep and promote most of each list
  // (scavenges of 5–7 ms instead of under 1 ms; docs/performance.md).
  list: (principal) =>
    ports.presetFees.listByManager(principal.managerId).andThen((fees) => ok(fees.map(toPresetFeeListItem))),
  get: (principal, presetFeeId) =>
    (isUuid(presetFeeId)
      ? ports.presetFees.findById(principal.managerId, presetFeeId)
      : okAsync(null)
    ).andThen((fee) =>
      fee === null ? errAsync(presetFeeNotFound(presetFeeId)) : okAsync(toPresetFeeResponse(fee)),
    ),
  add: (managerId, fee) =>
    validateFeeConfiguration(fee.configuration)
      .asyncAndThen(() => ports.presetFees.insert(managerId, fee))
      .map(() => fee),
});
