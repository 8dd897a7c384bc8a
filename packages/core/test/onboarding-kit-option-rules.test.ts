import { createMemoryAdapters } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import { createOnboardingKit, type OnboardingKitOptions } from '../src/index.js';

/** Construction with options a caller might get wrong (JavaScript, JSON config, `as` casts). */
const construct = (options: unknown) =>
  createOnboardingKit({ ...createMemoryAdapters(), options: options as OnboardingKitOptions });

describe('kit options are checked at construction', () => {
  it('accepts no options, and valid ones, applying defaults to the rest', () => {
    expect(construct(undefined).options.idempotencyLockTtlMs).toBe(60_000);
    const kit = construct({
      idempotencyLockTtlMs: 30_000,
      idempotencyMaxRecordsPerOwner: null,
      apiKeyCacheTtlMs: 0,
      referenceLists: { occupations: ['PILOT', 'OTHER'] },
    });
    expect(kit.options.idempotencyLockTtlMs).toBe(30_000);
    expect(kit.options.referenceLists.occupations).toEqual(['PILOT', 'OTHER']);
    expect(kit.options.referenceLists.countryCodes.length).toBeGreaterThan(200);
    expect(kit.idempotency.maxLockRenewalMs).toBe(5 * 60_000);
  });

  it.each([
    ['idempotencyLockTtlMs', 0],
    ['idempotencyLockTtlMs', -60_000],
    ['idempotencyLockTtlMs', 2 ** 31],
    ['idempotencyLockTtlMs', Number.NaN],
    ['idempotencyRecordTtlMs', -1],
    ['idempotencyRecordTtlMs', Number.POSITIVE_INFINITY],
    ['uploadUrlTtlMs', 0],
    ['downloadUrlTtlMs', 1.5],
    ['temporaryFileTtlMs', '86400000'],
    ['maxDocumentBytes', 0],
    ['idempotencyMaxRecordsPerOwner', 0],
    ['webhookAttemptTimeoutMs', 0],
    ['webhookRetryWindowMs', -1],
    ['webhookAllowPrivateNetworks', 'yes'],
    ['maxWebhookEndpointsPerManager', -5],
    ['apiKeyCacheTtlMs', -1],
    ['apiKeyCacheMaxEntries', 0],
    ['idempotencyLockMaxRenewalMs', 0],
  ])('refuses %s = %s with a TypeError naming it', (name, value) => {
    expect(() => construct({ [name]: value })).toThrow(TypeError);
    expect(() => construct({ [name]: value })).toThrow(`options.${name} `);
  });

  it('refuses an unknown option (a typo) by its name', () => {
    expect(() => construct({ idempotencyLockTTLMs: 1_000 })).toThrow(
      'options.idempotencyLockTTLMs is not an option of the kit',
    );
  });

  it('refuses a reference list that is empty, not a list, or unknown', () => {
    expect(() => construct({ referenceLists: { occupations: [] } })).toThrow(
      'options.referenceLists.occupations',
    );
    expect(() => construct({ referenceLists: { countryCodes: 'FR' } })).toThrow(
      'options.referenceLists.countryCodes',
    );
    expect(() => construct({ referenceLists: { colours: ['RED'] } })).toThrow(
      'options.referenceLists.colours',
    );
  });

  it('refuses a renewal limit shorter than the lock TTL', () => {
    expect(() => construct({ idempotencyLockTtlMs: 60_000, idempotencyLockMaxRenewalMs: 30_000 })).toThrow(
      'options.idempotencyLockMaxRenewalMs must be at least idempotencyLockTtlMs',
    );
  });

  it('names every wrong option at once', () => {
    expect(() => construct({ idempotencyLockTtlMs: 0, maxDocumentBytes: -1 })).toThrow(
      /options\.maxDocumentBytes .*options\.idempotencyLockTtlMs|options\.idempotencyLockTtlMs .*options\.maxDocumentBytes/,
    );
  });

  it('refuses options passed as a second argument instead of ignoring them', () => {
    const adapters = createMemoryAdapters();
    const twoArguments = createOnboardingKit as unknown as (...args: unknown[]) => unknown;
    expect(() => twoArguments(adapters, { maxDocumentBytes: 1_000 })).toThrow(
      'createOnboardingKit takes one argument',
    );
  });
});
