import { randomUUID } from 'node:crypto';
import {
  creationEntryFor,
  storedClientFixture,
  webhookDeliveryFixture,
  webhookEndpointFixture,
} from '@onboarding-kit/contract-tests';
import type { LoggedEvent, StoredClient } from '@onboarding-kit/core/adapter';
import { ok, ResultAsync } from 'neverthrow';
import { expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

/**
 * A page costs what the page holds, not what the store holds: `limit=1` of a manager with 50,000
 * clients against one with 1,000 (20,000 events or deliveries against 1,000), each in a store of
 * its own, in the same process, in interleaved rounds. A list that reads every row of the manager
 * or of the store (what the client and delivery lists used to do) is 20 to 50 times slower on the
 * large one; reading the page from an ordered index, it is about as fast. The bound is generous: 5×.
 */
const small = 1_000;
const large = 50_000;
/** Fewer events and deliveries: each one costs as much to set up as a client, and 20× already tells. */
const largeFeed = 20_000;
const maxRatio = 5;
const rounds = 9;
const callsPerRound = 200;

const instant = (n: number) => new Date(Date.UTC(2031, 0, 1) + n).toISOString();

/** The median over `rounds` of (time of `callsPerRound` calls of `onLarge`) / (same of `onSmall`). */
const medianRatio = async (onSmall: () => Promise<unknown>, onLarge: () => Promise<unknown>) => {
  const timeOf = async (call: () => Promise<unknown>) => {
    const started = performance.now();
    for (let n = 0; n < callsPerRound; n += 1) await call();
    return performance.now() - started;
  };
  await timeOf(onSmall);
  await timeOf(onLarge);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const smallMs = await timeOf(onSmall);
    ratios.push((await timeOf(onLarge)) / smallMs);
  }
  return ratios.sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
};

const loggedEvent = (managerId: string, n: number): LoggedEvent => ({
  managerId,
  clientId: `client-of-${managerId}`,
  event: {
    id: randomUUID(),
    type: 'client.approved',
    apiVersion: '1.0.0',
    createdAt: instant(n),
    data: { clientId: `client-of-${managerId}` },
  } as unknown as LoggedEvent['event'],
});

/** A store holding `clients` clients and `feed` events and deliveries, all of one manager. */
const storeOf = async (clients: number, feed: number) => {
  const adapters = createMemoryAdapters();
  const managerId = randomUUID();
  const endpoint = webhookEndpointFixture(managerId);
  const template = storedClientFixture({ managerId });
  const stored: StoredClient[] = Array.from({ length: clients }, (_, n) => ({
    ...template,
    id: randomUUID(),
    createdAt: instant(n),
  }));
  (
    await adapters.unitOfWork.transaction((stores) =>
      new ResultAsync(
        (async () => {
          for (const client of stored)
            (await stores.clients.insert(client, creationEntryFor(client)))._unsafeUnwrap();
          return ok(undefined);
        })(),
      )
        .andThen(() =>
          stores.events.append(Array.from({ length: feed }, (_, n) => loggedEvent(managerId, n))),
        )
        .andThen(() => stores.webhookEndpoints.insertWithinLimit(endpoint, 10))
        .andThen(() =>
          stores.webhookDeliveries.insertMissing(
            Array.from({ length: feed }, (_, n) =>
              webhookDeliveryFixture(endpoint, { createdAt: instant(n) }),
            ),
          ),
        ),
    )
  )._unsafeUnwrap();
  const expectOne = (page: readonly unknown[]) => expect(page).toHaveLength(1);
  return {
    clientPage: async () => expectOne((await adapters.clients.list({ managerId, limit: 1 }))._unsafeUnwrap()),
    eventPage: async () =>
      expectOne(
        (await adapters.events.listForManager({ managerId, limit: 1, afterPosition: '1' }))._unsafeUnwrap(),
      ),
    deliveryPage: async () =>
      expectOne(
        (
          await adapters.webhookDeliveries.listForEndpoint({ managerId, endpointId: endpoint.id, limit: 1 })
        )._unsafeUnwrap(),
      ),
  };
};

it('lists limit=1 of a manager with many clients, events or deliveries as fast as of one with few', async () => {
  const few = await storeOf(small, small);
  const many = await storeOf(large, largeFeed);
  const ratios = {
    clients: await medianRatio(few.clientPage, many.clientPage),
    events: await medianRatio(few.eventPage, many.eventPage),
    deliveries: await medianRatio(few.deliveryPage, many.deliveryPage),
  };
  console.log(
    `limit=1 at ${large} clients, ${largeFeed} events or deliveries / at ${small} (median of ${rounds} rounds): ` +
      Object.entries(ratios)
        .map(([list, ratio]) => `${list} ${ratio.toFixed(2)}×`)
        .join(', '),
  );
  for (const ratio of Object.values(ratios)) expect(ratio).toBeLessThan(maxRatio);
}, 120_000);
