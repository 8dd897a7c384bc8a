import { err, ok, type Result } from 'neverthrow';
import { match } from 'ts-pattern';
import { type ValidationFailed, validationFailed } from '../errors.js';
import type { FeeConfiguration } from '../schemas/preset-fee.js';

/**
 * Fee models (decisions §6). `FLAT` is one fee; `MONTHLY_VOLUME` is the fee of the first tier whose
 * `to` is at least the monthly volume (tiers strictly increasing by `to`), else `upperLimitFee`.
 */

const isValidAmount = (n: number) => Number.isFinite(n) && n >= 0;

/** Checks a configuration: finite non-negative numbers, tiers strictly increasing by `to`. */
export const validateFeeConfiguration = (
  configuration: FeeConfiguration,
): Result<FeeConfiguration, ValidationFailed> => {
  const problems: Record<string, string[]> = {};
  const report = (path: string, message: string) => {
    problems[path] = [...(problems[path] ?? []), message];
  };
  match(configuration)
    .with({ type: 'FLAT' }, ({ fee }) => {
      if (!isValidAmount(fee)) report('configuration.fee', 'Must be a finite number, zero or more');
    })
    .with({ type: 'MONTHLY_VOLUME' }, ({ intermediaryLimits, upperLimitFee }) => {
      if (!isValidAmount(upperLimitFee)) {
        report('configuration.upperLimitFee', 'Must be a finite number, zero or more');
      }
      intermediaryLimits.forEach((tier, index) => {
        const at = `configuration.intermediaryLimits[${index}]`;
        if (!isValidAmount(tier.to)) report(`${at}.to`, 'Must be a finite number, zero or more');
        if (!isValidAmount(tier.fee)) report(`${at}.fee`, 'Must be a finite number, zero or more');
        const previous = intermediaryLimits[index - 1];
        if (previous !== undefined && !(tier.to > previous.to)) {
          report(`${at}.to`, 'Tiers must be ordered by `to`, strictly increasing');
        }
      });
    })
    .exhaustive();
  return Object.keys(problems).length === 0
    ? ok(configuration)
    : err(validationFailed('The fee configuration is invalid', problems));
};

/** The fee that applies to a monthly volume under a (valid) configuration. */
export const evaluateFee = (
  configuration: FeeConfiguration,
  monthlyVolume: number,
): Result<number, ValidationFailed> => {
  if (!isValidAmount(monthlyVolume)) {
    return err(
      validationFailed('The monthly volume is invalid', {
        monthlyVolume: ['Must be a finite number, zero or more'],
      }),
    );
  }
  return validateFeeConfiguration(configuration).map((valid) =>
    match(valid)
      .with({ type: 'FLAT' }, ({ fee }) => fee)
      .with(
        { type: 'MONTHLY_VOLUME' },
        ({ intermediaryLimits, upperLimitFee }) =>
          intermediaryLimits.find((tier) => tier.to >= monthlyVolume)?.fee ?? upperLimitFee,
      )
      .exhaustive(),
  );
};
