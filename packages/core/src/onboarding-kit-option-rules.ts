import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
import type { ReferenceLists } from './validation/reference-lists.js';

/** The longest delay a Node timer takes; a longer one fires at once (a lock renewed every millisecond). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Ten years: a lifetime beyond it is a unit mistake, and dates past year 275,760 are invalid. */
const MAX_LIFETIME_MS = 10 * 365 * 24 * 60 * 60 * 1000;

const wholeNumber = (min: number, max: number = Number.MAX_SAFE_INTEGER) =>
  z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

const referenceList = z.array(z.string().min(1), { error: 'must be a list of strings' }).min(1, {
  error: 'must list at least one value',
});

/**
 * One rule per option: an option added to `OnboardingKitOptions` without its rule here fails to
 * compile. Durations are in milliseconds.
 */
const optionRules = {
  referenceLists: z
    .object({
      occupations: referenceList,
      businessSectors: referenceList,
      purposesOfOnboarding: referenceList,
      sourcesOfFunds: referenceList,
      annualRevenueRanges: referenceList,
      globalWealthRanges: referenceList,
      blockchainNetworks: referenceList,
      countryCodes: referenceList,
      fiatCurrencies: referenceList,
    } satisfies { [K in keyof ReferenceLists]: z.ZodType })
    .strict(),
  maxDocumentBytes: wholeNumber(1),
  uploadUrlTtlMs: wholeNumber(1_000, MAX_LIFETIME_MS),
  downloadUrlTtlMs: wholeNumber(1_000, MAX_LIFETIME_MS),
  temporaryFileTtlMs: wholeNumber(1_000, MAX_LIFETIME_MS),
  idempotencyRecordTtlMs: wholeNumber(1_000, MAX_LIFETIME_MS),
  // Renewed every third of it: under 100 ms the renewals alone would load the store.
  idempotencyLockTtlMs: wholeNumber(100, MAX_TIMER_MS),
  idempotencyLockMaxRenewalMs: wholeNumber(100, MAX_LIFETIME_MS),
  idempotencyMaxRecordsPerOwner: wholeNumber(1).nullable(),
  webhookRetryWindowMs: wholeNumber(1_000, MAX_LIFETIME_MS),
  webhookAttemptTimeoutMs: wholeNumber(1, MAX_TIMER_MS),
  webhookSecretOverlapMs: wholeNumber(0, MAX_LIFETIME_MS),
  webhookAllowPrivateNetworks: z.union([z.boolean(), z.array(z.string()).readonly()], {
    error: 'must be true, false or a list of endpoint URLs',
  }),
  maxWebhookEndpointsPerManager: wholeNumber(1),
  apiKeyCacheTtlMs: wholeNumber(0, MAX_LIFETIME_MS),
  apiKeyCacheMaxEntries: wholeNumber(1),
  // Up to a hundred years; a Date beyond that is a unit mistake.
  retentionAfterDeletionDays: wholeNumber(1, 36_500),
} satisfies { [K in keyof ResolvedOnboardingKitOptions]-?: z.ZodType };

/** The kit's options once defaults are applied: every option known, each in range. */
const resolvedOptionsSchema = z
  .object(optionRules)
  .strict()
  .refine((options) => options.idempotencyLockMaxRenewalMs >= options.idempotencyLockTtlMs, {
    path: ['idempotencyLockMaxRenewalMs'],
    error: 'must be at least idempotencyLockTtlMs',
  });

/**
 * Checks the options `createOnboardingKit` resolved: an unknown name (a typo), a wrong type or a
 * value out of range is a programmer's mistake, reported with every option it concerns.
 */
export const checkOnboardingKitOptions = (
  options: ResolvedOnboardingKitOptions,
): Result<ResolvedOnboardingKitOptions, string> => {
  const checked = resolvedOptionsSchema.safeParse(options);
  if (checked.success) return ok(options);
  const problems = checked.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    return keys
      .map((key) => {
        const path = [...issue.path, ...(key === undefined ? [] : [key])].map(String).join('.');
        const value = key === undefined ? issue.path.reduce<unknown>(valueAt, options) : undefined;
        return key === undefined
          ? `options.${path} ${issue.message} (got ${describe(value)})`
          : `options.${path} is not an option of the kit`;
      })
      .join('; ');
  });
  return err(`createOnboardingKit: ${problems.join('; ')}`);
};

const valueAt = (value: unknown, key: PropertyKey): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;

const describe = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Array.isArray(value) ? 'a list' : typeof value;
};
