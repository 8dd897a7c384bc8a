import { randomUUID } from 'node:crypto';
import { setTimeout as realSetTimeout } from 'node:timers';
import { creationEntryFor, storedClientFixture } from '@onboarding-kit/contract-tests';
import { type Client, createOnboardingKit, exampleIndividualPayload } from '@onboarding-kit/core';
import type { TransactionalStores } from '@onboarding-kit/core/adapter';
import { ok, type Result, ResultAsync } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

const realDelay = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

describe('memory transactions', () => {
  it('ends a transaction whose work waits for a write through an outer store at its deadline, then runs that write', async () => {
    const adapters = createMemoryAdapters({ transactionTimeoutMs: 100 });
    const inner = storedClientFixture({ managerId: randomUUID() });
    const outer = storedClientFixture({ managerId: randomUUID() });
    const started = performance.now();
    let outerWrite: Promise<boolean> = Promise.resolve(false);
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      stores.clients.insert(inner, creationEntryFor(inner)).andThen(() => {
        // Needs the lock this transaction holds: it waits, and so does the work.
        outerWrite = Promise.resolve(adapters.clients.insert(outer, creationEntryFor(outer))).then(
          (written) => written.isOk(),
        );
        return new ResultAsync(outerWrite.then(() => ok(undefined)));
      }),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable' });
    expect(String((outcome._unsafeUnwrapErr() as { cause?: unknown }).cause)).toContain(
      'did not end within 100 ms',
    );
    // The lock passed on: the outer write ran, the abandoned transaction kept nothing.
    expect(await outerWrite).toBe(true);
    expect(adapters.testing.readClient(outer.id)).toEqual(outer);
    expect(adapters.testing.readClient(inner.id)).toBeNull();
  });

  it('abandons work that never settles at the deadline and refuses its later writes; the next transaction runs', async () => {
    const adapters = createMemoryAdapters({ transactionTimeoutMs: 50 });
    const stuck = storedClientFixture({ managerId: randomUUID() });
    const next = storedClientFixture({ managerId: randomUUID() });
    let storesOfStuck: TransactionalStores | undefined;
    const abandoned = adapters.unitOfWork.transaction((stores) => {
      storesOfStuck = stores;
      return new ResultAsync(new Promise<Result<void, never>>(() => undefined));
    });
    const queued = adapters.unitOfWork.transaction((stores) =>
      stores.clients.insert(next, creationEntryFor(next)),
    );
    expect((await abandoned)._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable' });
    expect((await queued).isOk()).toBe(true);
    const late = await storesOfStuck?.clients.insert(stuck, creationEntryFor(stuck));
    expect(late?._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable' });
    expect(adapters.testing.readClient(next.id)).toEqual(next);
    expect(adapters.testing.readClient(stuck.id)).toBeNull();
  });

  it("keeps its deadline on Node's own timers: a test's fake timers neither fire it nor hold a transaction", async () => {
    const adapters = createMemoryAdapters({ transactionTimeoutMs: 1_000 });
    const client = storedClientFixture({ managerId: randomUUID() });
    vi.useFakeTimers();
    try {
      const outcome = adapters.unitOfWork.transaction((stores) =>
        new ResultAsync(realDelay(30).then(() => ok(undefined))).andThen(() =>
          stores.clients.insert(client, creationEntryFor(client)),
        ),
      );
      vi.advanceTimersByTime(60_000);
      expect((await outcome).isOk()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect(adapters.testing.readClient(client.id)).toEqual(client);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
    'refuses a transactionTimeoutMs of %s',
    (transactionTimeoutMs) => {
      expect(() => createMemoryAdapters({ transactionTimeoutMs })).toThrow(RangeError);
    },
  );

  it('stores a copy and hands out frozen values: no mutation reaches stored state', async () => {
    const adapters = createMemoryAdapters();
    const client = storedClientFixture({ managerId: randomUUID() });
    (await adapters.clients.insert(client, creationEntryFor(client)))._unsafeUnwrap();
    const pristine = structuredClone(client);
    (client.bankAccounts as unknown[]).length = 0;
    const found = (await adapters.clients.findById(client.id))._unsafeUnwrap();
    expect(() => {
      (found?.blockchainWallets as unknown[]).length = 0;
    }).toThrow(TypeError);
    expect(() => {
      (found?.individualProfile as { city: string }).city = 'Lyon';
    }).toThrow(TypeError);
    expect(adapters.testing.readClient(client.id)).toEqual(pristine);
  });

  it('refuses a write that arrives after its transaction ended', async () => {
    const adapters = createMemoryAdapters();
    const late = storedClientFixture({ managerId: randomUUID() });
    let lateWrite: Promise<boolean> | undefined;
    (
      await adapters.unitOfWork.transaction((stores) => {
        lateWrite = new Promise((resolve) => setTimeout(resolve, 10)).then(async () =>
          (await stores.clients.insert(late, creationEntryFor(late))).isErr(),
        );
        return stores.clients.findById(late.id);
      })
    )._unsafeUnwrap();
    expect(await lateWrite).toBe(true);
    expect(adapters.testing.readClient(late.id)).toBeNull();
  });

  it('stores the client.created event sharing the frozen parts of the client it carries, not a second copy', async () => {
    const adapters = createMemoryAdapters();
    const kit = createOnboardingKit(adapters);
    const principal = { kind: 'manager' as const, managerId: randomUUID() };
    adapters.testing.putTemporaryFile(`manager:${principal.managerId}`, 'id.pdf', new Uint8Array([1]));
    const created = (
      await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: ['id.pdf'] }))
    )._unsafeUnwrap();
    // The stored value itself (testing.readClient hands out a structured clone).
    const stored = (await adapters.clients.findById(created.id))._unsafeUnwrap();
    const [logged] = (
      await adapters.events.listForManager({
        managerId: principal.managerId,
        limit: 10,
        type: 'client.created',
      })
    )._unsafeUnwrap();
    expect(logged).toBeDefined();
    const carried = (logged?.event.data as { client: Client } | undefined)?.client;
    expect(carried).toEqual(created);
    expect(carried?.individualProfile).toBe(stored?.individualProfile);
    expect(carried?.bankAccounts).toBe(stored?.bankAccounts);
    expect(Object.isFrozen(carried?.individualProfile)).toBe(true);
  });
});
