import { createMemoryAdapters } from '@onboarding-kit/memory';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { documentKeyFor } from '../src/adapter.js';
import { createControllableClock, createOnboardingKit, startKitMaintenance } from '../src/index.js';

const day = 24 * 60 * 60_000;

/**
 * The kit's background work has a documented start and a close that drains it. Its intervals run on
 * fake timers: the test moves time on instead of waiting for it.
 */
describe('startKitMaintenance', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('runs the purge and the sweep at start and at their intervals; close stops them and drains a run', async () => {
    const clock = createControllableClock(new Date('2030-01-01T00:00:00Z'));
    const adapters = createMemoryAdapters({ clock });
    const kit = createOnboardingKit(adapters);
    // An expired idempotency record and an old orphan copy, for the first runs to remove.
    const claimed = (
      await kit.idempotency.claim({ scope: 's', owner: 'manager:m', key: 'k', body: {} })
    )._unsafeUnwrap();
    if (claimed.type !== 'Claimed') throw new Error('expected a claim');
    (
      await kit.idempotency.complete(claimed.ref, { kind: 'response', status: 200, body: {} })
    )._unsafeUnwrap();
    adapters.testing.putTemporaryFile('manager:m', 'orphan.pdf', new Uint8Array([1]));
    const version =
      (await adapters.documentStorage.statTemporary('manager:m', 'orphan.pdf'))._unsafeUnwrap()?.version ??
      '';
    const orphan = documentKeyFor(crypto.randomUUID(), 'orphan.pdf');
    (
      await adapters.documentStorage.copyToPermanent([
        { owner: 'manager:m', filename: 'orphan.pdf', key: orphan, version },
      ])
    )._unsafeUnwrap();
    clock.advance(2 * day);

    const errors: unknown[] = [];
    const maintenance = startKitMaintenance(kit, {
      logger: { error: (message, details) => errors.push({ message, details }) },
      purgeIdempotencyEveryMs: 20,
      sweepOrphanDocumentsEveryMs: 20,
    });
    await vi.advanceTimersByTimeAsync(60);
    expect(adapters.testing.readIdempotencyRecord('s', 'k')).toBeNull();
    expect(adapters.testing.listDocumentKeys()).toEqual([]);

    await maintenance.close();
    await maintenance.close();
    // Nothing runs after close: a new orphan stays.
    adapters.testing.putTemporaryFile('manager:m', 'later.pdf', new Uint8Array([1]));
    const laterVersion =
      (await adapters.documentStorage.statTemporary('manager:m', 'later.pdf'))._unsafeUnwrap()?.version ?? '';
    const later = documentKeyFor(crypto.randomUUID(), 'later.pdf');
    (
      await adapters.documentStorage.copyToPermanent([
        { owner: 'manager:m', filename: 'later.pdf', key: later, version: laterVersion },
      ])
    )._unsafeUnwrap();
    clock.advance(2 * day);
    await vi.advanceTimersByTimeAsync(60);
    expect(adapters.testing.listDocumentKeys()).toEqual([later]);
    expect(errors).toEqual([]);
  });

  test('a failing run is logged and retried at the next interval, never thrown', async () => {
    const adapters = createMemoryAdapters();
    const kit = createOnboardingKit(adapters);
    let calls = 0;
    const failing = {
      ...kit,
      documents: {
        ...kit.documents,
        sweepOrphanDocuments: () => {
          calls += 1;
          throw new Error('storage exploded');
        },
      },
    };
    const errors: Array<{ message: string }> = [];
    const maintenance = startKitMaintenance(failing, {
      logger: { error: (message) => errors.push({ message }) },
      purgeIdempotencyEveryMs: 0,
      sweepOrphanDocumentsEveryMs: 15,
    });
    await vi.advanceTimersByTimeAsync(70);
    await maintenance.close();
    // At start, then at 15, 30, 45 and 60 ms.
    expect(calls).toBe(5);
    expect(errors.length).toBe(calls);
    expect(errors[0]?.message).toBe('onboarding-kit: could not sweep orphan documents');
  });
});
