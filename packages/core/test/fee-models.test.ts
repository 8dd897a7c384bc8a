import { describe, expect, it } from 'vitest';
import { evaluateFee, type FeeConfiguration } from '../src/index.js';
import { validateFeeConfiguration } from '../src/schemas/index.js';

const tiered: FeeConfiguration = {
  type: 'MONTHLY_VOLUME',
  intermediaryLimits: [
    { to: 10_000, fee: 1.5 },
    { to: 100_000, fee: 1 },
  ],
  upperLimitFee: 0.5,
};

describe('fee models (decisions §6)', () => {
  it('FLAT is the fee whatever the volume', () => {
    expect(evaluateFee({ type: 'FLAT', fee: 0.8 }, 0)._unsafeUnwrap()).toBe(0.8);
    expect(evaluateFee({ type: 'FLAT', fee: 0.8 }, 1e12)._unsafeUnwrap()).toBe(0.8);
  });
  it('MONTHLY_VOLUME takes the first tier whose `to` is at least the volume', () => {
    expect(evaluateFee(tiered, 0)._unsafeUnwrap()).toBe(1.5);
    expect(evaluateFee(tiered, 10_000)._unsafeUnwrap()).toBe(1.5);
    expect(evaluateFee(tiered, 10_000.01)._unsafeUnwrap()).toBe(1);
    expect(evaluateFee(tiered, 100_000)._unsafeUnwrap()).toBe(1);
  });
  it('above every tier is the upper limit fee; no tiers at all too', () => {
    expect(evaluateFee(tiered, 100_001)._unsafeUnwrap()).toBe(0.5);
    expect(
      evaluateFee({ type: 'MONTHLY_VOLUME', intermediaryLimits: [], upperLimitFee: 2 }, 5)._unsafeUnwrap(),
    ).toBe(2);
  });
  it('refuses unordered or repeated tiers, negative and non-finite numbers, with paths', () => {
    const unordered = validateFeeConfiguration({
      ...tiered,
      intermediaryLimits: [
        { to: 5, fee: 1 },
        { to: 5, fee: 1 },
      ],
    });
    expect(unordered._unsafeUnwrapErr().parameterErrors).toHaveProperty([
      'configuration.intermediaryLimits[1].to',
    ]);
    const negative = validateFeeConfiguration({ type: 'FLAT', fee: -1 });
    expect(negative._unsafeUnwrapErr().parameterErrors).toHaveProperty(['configuration.fee']);
    const infinite = validateFeeConfiguration({ ...tiered, upperLimitFee: Number.POSITIVE_INFINITY });
    expect(infinite._unsafeUnwrapErr().parameterErrors).toHaveProperty(['configuration.upperLimitFee']);
    expect(validateFeeConfiguration({ type: 'FLAT', fee: Number.NaN }).isErr()).toBe(true);
    expect(evaluateFee({ type: 'FLAT', fee: -1 }, 1).isErr()).toBe(true);
    expect(evaluateFee(tiered, -1).isErr()).toBe(true);
  });
});
