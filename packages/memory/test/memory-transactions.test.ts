import { randomUUID } from 'node:crypto';
import { creationEntryFor, storedClientFixture } from '@onboarding-kit/contract-tests';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

describe('memory transactions', () => {
  it('lets a write through an outer store inside a transaction run at once instead of waiting forever', async () => {
    const adapters = createMemoryAdapters();
    const inner = storedClientFixture({ managerId: randomUUID() });
    const outer = storedClientFixture({ managerId: randomUUID() });
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(inner, creationEntryFor(inner))
        // Like a second connection: committed on its own, whatever the transaction becomes.
        .andThen(() => adapters.clients.insert(outer, creationEntryFor(outer))),
    );
    expect(outcome.isOk()).toBe(true);
    expect(adapters.testing.readClient(inner.id)).toEqual(inner);
    expect(adapters.testing.readClient(outer.id)).toEqual(outer);
  });

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
});
