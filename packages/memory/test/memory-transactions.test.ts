import { randomUUID } from 'node:crypto';
import {
  creationEntryFor,
  storedClientFixture,
  webhookDeliveryFixture,
  webhookEndpointFixture,
} from '@onboarding-kit/contract-tests';
import type { LoggedEvent, TransactionalStores } from '@onboarding-kit/core/adapter';
import { errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

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
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.useFakeTimers();
    try {
      const outcome = adapters.unitOfWork.transaction((stores) =>
        new ResultAsync(held.then(() => ok(undefined))).andThen(() =>
          stores.clients.insert(client, creationEntryFor(client)),
        ),
      );
      // A minute of fake time while the transaction is held: its 1 s deadline does not fire.
      await vi.advanceTimersByTimeAsync(60_000);
      release();
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

  it.each([1, 2 ** 31 - 1])(
    'takes a transactionTimeoutMs of %s, the bounds of a Node timer',
    (transactionTimeoutMs) => {
      expect(() => createMemoryAdapters({ transactionTimeoutMs })).not.toThrow();
    },
  );

  it('hands out the webhook transport it is given in place of its recording one', () => {
    const transport = { send: vi.fn() };
    expect(createMemoryAdapters({ webhookTransport: transport as never }).webhookTransport).toBe(transport);
  });

  it('refuses the reads of a transaction a failed write aborted', async () => {
    const adapters = createMemoryAdapters();
    const client = storedClientFixture({ managerId: randomUUID() });
    await adapters.clients.insert(client, creationEntryFor(client));
    const reads: unknown[] = [];
    await adapters.unitOfWork.transaction((stores) =>
      stores.clients.insert(client, creationEntryFor(client)).orElse(() =>
        stores.clients
          .findById(client.id)
          .map(() => reads.push('answered'))
          .orElse((refused) => okAsync(reads.push(refused))),
      ),
    );
    expect(reads).toEqual([expect.objectContaining({ type: 'StorageUnavailable' })]);
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
    let kept: Parameters<Parameters<typeof adapters.unitOfWork.transaction>[0]>[0] | undefined;
    (
      await adapters.unitOfWork.transaction((stores) => {
        kept = stores;
        return stores.clients.findById(late.id);
      })
    )._unsafeUnwrap();
    // The transaction has ended: a write through its stores now comes after it.
    expect((await kept?.clients.insert(late, creationEntryFor(late)))?.isErr()).toBe(true);
    expect(adapters.testing.readClient(late.id)).toBeNull();
  });
});

describe('memory transactions and the ordered lists', () => {
  it('lists nothing of a rolled-back transaction: clients, events, endpoints and deliveries', async () => {
    const adapters = createMemoryAdapters();
    const managerId = randomUUID();
    const client = storedClientFixture({ managerId });
    const endpoint = webhookEndpointFixture(managerId);
    const delivery = webhookDeliveryFixture(endpoint);
    const event: LoggedEvent = {
      managerId,
      clientId: client.id,
      event: {
        id: randomUUID(),
        type: 'client.approved',
        apiVersion: '1.0.0',
        createdAt: client.createdAt,
        data: { clientId: client.id },
      } as unknown as LoggedEvent['event'],
    };
    const rolledBack = await adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(client, creationEntryFor(client))
        .andThen(() => stores.events.append([event]))
        .andThen(() => stores.webhookEndpoints.insertWithinLimit(endpoint, 10))
        .andThen(() => stores.webhookDeliveries.insertMissing([delivery]))
        .andThen(() => stores.webhookEndpoints.listForManager(managerId))
        .andThen((endpointsInside) => {
          expect(endpointsInside).toEqual([endpoint]);
          return errAsync('rolled back' as const);
        }),
    );
    expect(rolledBack._unsafeUnwrapErr()).toBe('rolled back');
    expect((await adapters.clients.list({ managerId, limit: 10 }))._unsafeUnwrap()).toEqual([]);
    expect((await adapters.events.listForManager({ managerId, limit: 10 }))._unsafeUnwrap()).toEqual([]);
    expect((await adapters.events.findByIds([event.event.id]))._unsafeUnwrap()).toEqual([]);
    expect((await adapters.webhookEndpoints.listForManager(managerId))._unsafeUnwrap()).toEqual([]);
    expect(
      (
        await adapters.webhookDeliveries.listForEndpoint({ managerId, endpointId: endpoint.id, limit: 10 })
      )._unsafeUnwrap(),
    ).toEqual([]);
    expect((await adapters.webhookDeliveries.listForEvents([delivery.eventId]))._unsafeUnwrap()).toEqual([]);

    // The same writes committed are listed, and a write after them sees them.
    (
      await adapters.unitOfWork.transaction((stores) =>
        stores.clients
          .insert(client, creationEntryFor(client))
          .andThen(() => stores.events.append([event]))
          .andThen(() => stores.webhookEndpoints.insertWithinLimit(endpoint, 10))
          .andThen(() => stores.webhookDeliveries.insertMissing([delivery])),
      )
    )._unsafeUnwrap();
    expect((await adapters.clients.list({ managerId, limit: 10 }))._unsafeUnwrap()).toEqual([client]);
    expect(
      (await adapters.events.listForManager({ managerId, limit: 10 }))
        ._unsafeUnwrap()
        .map((row) => row.position),
    ).toEqual(['1']);
    expect(
      (
        await adapters.webhookDeliveries.listForEndpoint({ managerId, endpointId: endpoint.id, limit: 10 })
      )._unsafeUnwrap(),
    ).toEqual([delivery]);
    expect(
      (
        await adapters.webhookEndpoints.insertWithinLimit(webhookEndpointFixture(managerId), 1)
      )._unsafeUnwrap(),
    ).toBe(false);
  });

  it('a write that fails halfway aborts its transaction, as in PostgreSQL: nothing of it lands, whatever the work answers', async () => {
    const adapters = createMemoryAdapters();
    const managerId = randomUUID();
    const client = storedClientFixture({ managerId });
    // A history entry that cannot be read, so not stored: the client is written before it.
    const unstorable = Object.defineProperty({ ...creationEntryFor(client) }, 'reason', {
      enumerable: true,
      get: () => {
        throw new Error('unreadable');
      },
    });
    const other = storedClientFixture({ managerId });
    const failures: unknown[] = [];
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(client, unstorable)
        .map(() => 'inserted' as const)
        .orElse((failed) => {
          // The failed write answers Err to the work, which may go on.
          failures.push(failed);
          // Every later read and write of the aborted transaction is refused.
          return stores.clients
            .list({ managerId, limit: 10 })
            .map(() => 'listed' as const)
            .orElse(() =>
              stores.clients.insert(other, creationEntryFor(other)).map(() => 'inserted' as const),
            )
            .orElse(() => okAsync('went on' as const));
        }),
    );
    expect(failures).toEqual([expect.objectContaining({ type: 'StorageUnavailable' })]);
    // The work went on and answered Ok: the transaction still does not commit.
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable' });
    expect(adapters.testing.readClient(client.id)).toBeNull();
    expect(adapters.testing.readClient(other.id)).toBeNull();
    expect((await adapters.clients.list({ managerId, limit: 10 }))._unsafeUnwrap()).toEqual([]);
    // The lock passed on: the next transaction commits.
    (
      await adapters.unitOfWork.transaction((stores) => stores.clients.insert(other, creationEntryFor(other)))
    )._unsafeUnwrap();
    expect(adapters.testing.readClient(other.id)).not.toBeNull();
  });

  it("counts an owner's live idempotency records from their latest claim: a takeover re-dates the record", async () => {
    const adapters = createMemoryAdapters();
    const owner = `manager:${randomUUID()}`;
    const ttl = 1_000;
    const t0 = new Date('2031-01-01T00:00:00.000Z');
    const claim = (key: string, ms: number) =>
      adapters.idempotency.claim({
        scope: `${owner} POST /clients`,
        key,
        token: randomUUID(),
        owner,
        maxLiveRecordsPerOwner: 2,
        fingerprint: 'f'.repeat(64),
        now: new Date(t0.getTime() + ms),
        lockTtlMs: ttl,
        recordTtlMs: ttl,
      });
    expect((await claim('k1', 0))._unsafeUnwrap()).toEqual({ type: 'Claimed' });
    expect((await claim('k2', 500))._unsafeUnwrap()).toEqual({ type: 'Claimed' });
    expect((await claim('k3', 600))._unsafeUnwrap()).toEqual({ type: 'QuotaExceeded', retryAfterMs: 401 });
    // k1 expired: a new claim takes it over, dated now; k2 and the new k1 are live.
    expect((await claim('k1', 1_200))._unsafeUnwrap()).toEqual({ type: 'Claimed' });
    expect((await claim('k3', 1_300))._unsafeUnwrap()).toEqual({ type: 'QuotaExceeded', retryAfterMs: 201 });
    // Once k2 expires, one place frees.
    expect((await claim('k3', 1_501))._unsafeUnwrap()).toEqual({ type: 'Claimed' });
  });

  it('stores a recorded outcome as data: a key named __proto__ stays a key, and nothing reaches the caller’s object', async () => {
    const adapters = createMemoryAdapters();
    const scope = `manager:${randomUUID()} POST /clients`;
    const ref = { scope, key: 'k', token: randomUUID() };
    const request = {
      ...ref,
      owner: 'manager:x',
      maxLiveRecordsPerOwner: null,
      fingerprint: 'f'.repeat(64),
      now: new Date('2031-01-01T00:00:00.000Z'),
      lockTtlMs: 60_000,
      recordTtlMs: 60_000,
    };
    (await adapters.idempotency.claim(request))._unsafeUnwrap();
    const body = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"list": [1, {"deep": "x"}]}}') as {
      nested: { list: [number, { deep: string }] };
      at?: Date;
    };
    // Not JSON, but kept whole: a Date stays a Date of its own.
    body.at = new Date('2031-02-03T04:05:06.789Z');
    (
      await adapters.idempotency.complete(ref, { kind: 'response', status: 200, body }, request.now)
    )._unsafeUnwrap();
    body.nested.list[1].deep = 'changed';
    const replay = (await adapters.idempotency.claim(request))._unsafeUnwrap();
    if (replay.type !== 'Replay' || replay.outcome.kind !== 'response') expect.fail(JSON.stringify(replay));
    const stored = replay.outcome.body as typeof body;
    expect(Object.keys(stored)).toEqual(['__proto__', 'nested', 'at']);
    expect(stored.at).toBeInstanceOf(Date);
    expect(stored.at).not.toBe(body.at);
    expect(stored.at?.toISOString()).toBe('2031-02-03T04:05:06.789Z');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(stored.nested.list[1].deep).toBe('x');
    for (const part of [stored, stored.nested, stored.nested.list, stored.nested.list[1]])
      expect(Object.isFrozen(part)).toBe(true);
  });
});
