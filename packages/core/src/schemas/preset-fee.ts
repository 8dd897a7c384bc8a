import { z } from 'zod';
import { dateTimeSchema } from './client-response.js';

/** Preset fees (spec 2.11). The list names the direction `feeDirection`, the single item `transactionType`. */

export const feeDirections = ['ONRAMP', 'OFFRAMP'] as const;
export const feeDirectionSchema = z.enum(feeDirections);
export type FeeDirection = z.infer<typeof feeDirectionSchema>;

export const flatFeeConfigurationSchema = z.object({ type: z.literal('FLAT'), fee: z.number() });
export const monthlyVolumeFeeConfigurationSchema = z.object({
  type: z.literal('MONTHLY_VOLUME'),
  intermediaryLimits: z.array(z.object({ to: z.number(), fee: z.number() })),
  upperLimitFee: z.number(),
});
export const feeConfigurationSchema = z
  .discriminatedUnion('type', [flatFeeConfigurationSchema, monthlyVolumeFeeConfigurationSchema])
  .meta({ id: 'FeeConfiguration' });
export type FeeConfiguration = z.infer<typeof feeConfigurationSchema>;

/** A preset fee as the domain holds it. */
export type PresetFee = {
  readonly id: string;
  readonly feeDirection: FeeDirection;
  readonly fiatFeeGroup: string;
  readonly blockchainFeeGroup: string;
  readonly configuration: FeeConfiguration;
  readonly createdAt: string;
};

export const presetFeeListItemSchema = z
  .object({
    id: z.uuid(),
    feeDirection: feeDirectionSchema,
    fiatFeeGroup: z.string(),
    blockchainFeeGroup: z.string(),
    configuration: feeConfigurationSchema,
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'PresetFeeListItem' });
export const presetFeeListResponseSchema = z.array(presetFeeListItemSchema).meta({ id: 'PresetFeeList' });
export type PresetFeeListItem = z.infer<typeof presetFeeListItemSchema>;

export const presetFeeSchema = z
  .object({
    id: z.uuid(),
    transactionType: feeDirectionSchema,
    fiatFeeGroup: z.string(),
    blockchainFeeGroup: z.string(),
    configuration: feeConfigurationSchema,
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'PresetFee' });
export type PresetFeeResponse = z.infer<typeof presetFeeSchema>;

export const toPresetFeeListItem = (fee: PresetFee): PresetFeeListItem => ({
  id: fee.id,
  feeDirection: fee.feeDirection,
  fiatFeeGroup: fee.fiatFeeGroup,
  blockchainFeeGroup: fee.blockchainFeeGroup,
  configuration: fee.configuration,
  createdAt: fee.createdAt,
});
export const toPresetFeeResponse = ({ feeDirection, ...rest }: PresetFee): PresetFeeResponse => ({
  ...rest,
  transactionType: feeDirection,
});
