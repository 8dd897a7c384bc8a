import { randomUUID } from 'node:crypto';
import type { PresetFee } from '@onboarding-kit/core';
import { newestFirst, type PresetFeeRepository } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type PresetFeeInspector = {
  /** The fee and its owner as the backend holds them, read directly, or null. */
  readPresetFee(presetFeeId: string): Promise<{ managerId: string; fee: PresetFee } | null>;
};

export type PresetFeeRepositoryContractFixture = Teardown & {
  readonly presetFees: PresetFeeRepository;
  readonly inspect: PresetFeeInspector;
};

export type PresetFeeRepositoryContractOptions = {
  readonly name: string;
  /** Called once per test; ids are random, so a shared backend works. */
  readonly setup: () => Promise<PresetFeeRepositoryContractFixture>;
};

const flatFee = (createdAt: string): PresetFee => ({
  id: randomUUID(),
  feeDirection: 'ONRAMP',
  fiatFeeGroup: 'USD',
  blockchainFeeGroup: 'USD_STABLECOIN',
  configuration: { type: 'FLAT', fee: 1.25 },
  createdAt,
});

const volumeFee = (createdAt: string): PresetFee => ({
  id: randomUUID(),
  feeDirection: 'OFFRAMP',
  fiatFeeGroup: 'G10',
  blockchainFeeGroup: 'EUR_STABLECOIN',
  configuration: {
    type: 'MONTHLY_VOLUME',
    intermediaryLimits: [
      { to: 10_000, fee: 0.9 },
      { to: 100_000.5, fee: 0.45 },
    ],
    upperLimitFee: 0.125,
  },
  createdAt,
});

/** PresetFeeRepository (core/src/ports/preset-fee-repository.ts). */
export const runPresetFeeRepositoryContract = ({ name, setup }: PresetFeeRepositoryContractOptions): void => {
  describe(`PresetFeeRepository contract: ${name}`, () => {
    it('stores an inserted fee of either configuration type exactly', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      for (const fee of [flatFee('2031-01-01T00:00:00.000Z'), volumeFee('2031-01-02T00:00:00.000Z')]) {
        await expectOk(fixture.presetFees.insert(managerId, fee));
        expect(await fixture.inspect.readPresetFee(fee.id)).toEqual({ managerId, fee });
        expect(await expectOk(fixture.presetFees.findById(managerId, fee.id))).toEqual(fee);
      }
    });

    it("lists a manager's fees newest createdAt first, ties by id descending, and no one else's", async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const days = [1, 2, 2, 2, 3, 5];
      const own = days.map((day, i) =>
        (i % 2 === 0 ? flatFee : volumeFee)(new Date(Date.UTC(2031, 0, day)).toISOString()),
      );
      const other = flatFee(new Date(Date.UTC(2031, 0, 4)).toISOString());
      for (const fee of own) await expectOk(fixture.presetFees.insert(managerId, fee));
      await expectOk(fixture.presetFees.insert(randomUUID(), other));

      expect(await expectOk(fixture.presetFees.listByManager(managerId))).toEqual([...own].sort(newestFirst));
      expect(await expectOk(fixture.presetFees.listByManager(randomUUID()))).toEqual([]);
    });

    it('refuses an id that exists, for the same or another manager, and changes nothing', async () => {
      const fixture = await openFixture(setup);
      const owner = randomUUID();
      const fee = volumeFee('2031-03-01T00:00:00.000Z');
      await expectOk(fixture.presetFees.insert(owner, fee));
      const other = randomUUID();
      expect(await expectErr(fixture.presetFees.insert(other, { ...fee, fiatFeeGroup: 'moved' }))).toEqual({
        type: 'PresetFeeIdTaken',
        presetFeeId: fee.id,
      });
      expect(await expectErr(fixture.presetFees.insert(owner, fee))).toEqual({
        type: 'PresetFeeIdTaken',
        presetFeeId: fee.id,
      });
      expect(await expectOk(fixture.presetFees.findById(owner, fee.id))).toEqual(fee);
      expect(await expectOk(fixture.presetFees.findById(other, fee.id))).toBeNull();
      expect(await expectOk(fixture.presetFees.listByManager(other))).toEqual([]);
    });

    it("finds by id only within the manager: another manager's or an unknown id is null", async () => {
      const fixture = await openFixture(setup);
      const owner = randomUUID();
      const fee = volumeFee('2031-02-01T00:00:00.000Z');
      await expectOk(fixture.presetFees.insert(owner, fee));
      expect(await expectOk(fixture.presetFees.findById(randomUUID(), fee.id))).toBeNull();
      expect(await expectOk(fixture.presetFees.findById(owner, randomUUID()))).toBeNull();
      expect(await expectOk(fixture.presetFees.findById(owner, fee.id))).toEqual(fee);
    });
  });
};
