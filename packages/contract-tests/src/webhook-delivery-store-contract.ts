import { randomUUID } from 'node:crypto';
import type { StoredWebhookDelivery, UnitOfWork } from '@onboarding-kit/core/adapter';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture } from './test-fixture.js';
import {
  insertEndpoint,
  type WebhookStoresContractFixture,
  webhookDeliveryFixture,
  webhookEndpointFixture,
} from './webhook-endpoint-store-contract.js';

export type WebhookDeliveryStoreContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<WebhookStoresContractFixture & { readonly unitOfWork: UnitOfWork }>;
};

const at = (minute: number): string => new Date(Date.UTC(2031, 0, 1, 0, minute)).toISOString();

/** WebhookDeliveryStore (core/src/ports/webhook-delivery-store.ts): one delivery per (endpoint, event). */
export const runWebhookDeliveryStoreContract = ({
  name,
  setup,
}: WebhookDeliveryStoreContractOptions): void => {
  describe(`WebhookDeliveryStore contract: ${name}`, () => {
    it('keeps a delivery exactly as inserted, every field included', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const fresh = webhookDeliveryFixture(endpoint);
      const attempted = webhookDeliveryFixture(endpoint, {
        eventType: 'documents.promoted',
        status: 'failed',
        attempts: 7,
        lastAttemptAt: '2031-01-03T23:59:59.999Z',
        nextAttemptAt: null,
        lastStatusCode: 503,
        lastError: 'answered 503 — “unavailable”',
      });
      await expectOk(deliveries.insertMissing([fresh, attempted]));
      expect(await expectOk(deliveries.find(fresh.id))).toEqual(fresh);
      expect(await expectOk(deliveries.find(attempted.id))).toEqual(attempted);
      expect(await expectOk(deliveries.find(randomUUID()))).toBeNull();
      await expectOk(deliveries.insertMissing([]));
    });

    it('adds one delivery per (endpoint, event): a second one for the pair is left out, the first kept', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const manager = randomUUID();
      const [first, second] = [webhookEndpointFixture(manager), webhookEndpointFixture(manager)];
      await insertEndpoint(endpoints, first);
      await insertEndpoint(endpoints, second);
      const event = randomUUID();
      const original = webhookDeliveryFixture(first, { eventId: event });
      await expectOk(deliveries.insertMissing([original]));
      const duplicate = webhookDeliveryFixture(first, { eventId: event, attempts: 3, status: 'failed' });
      const toSecond = webhookDeliveryFixture(second, { eventId: event });
      await expectOk(deliveries.insertMissing([duplicate, toSecond]));
      expect(await expectOk(deliveries.find(duplicate.id))).toBeNull();
      const ofEvent = await expectOk(deliveries.listForEvents([event]));
      expect(ofEvent.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [original, toSecond].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await expectOk(deliveries.listForEvents([randomUUID()]))).toEqual([]);
    });

    it('lists the deliveries of several events at once, to every endpoint', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const manager = randomUUID();
      const [first, second] = [webhookEndpointFixture(manager), webhookEndpointFixture(manager)];
      await insertEndpoint(endpoints, first);
      await insertEndpoint(endpoints, second);
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const made = [
        webhookDeliveryFixture(first, { eventId: a }),
        webhookDeliveryFixture(second, { eventId: a }),
        webhookDeliveryFixture(first, { eventId: b }),
        webhookDeliveryFixture(first, { eventId: c }),
      ];
      await expectOk(deliveries.insertMissing(made));
      const byId = (x: StoredWebhookDelivery, y: StoredWebhookDelivery) => x.id.localeCompare(y.id);
      expect((await expectOk(deliveries.listForEvents([a, b, randomUUID()]))).sort(byId)).toEqual(
        made.slice(0, 3).sort(byId),
      );
      expect(await expectOk(deliveries.listForEvents([]))).toEqual([]);
    });

    it('two workers adding the same deliveries at once leave one per pair', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const events = Array.from({ length: 20 }, () => randomUUID());
      await Promise.all(
        Array.from({ length: 4 }, () =>
          expectOk(
            deliveries.insertMissing(events.map((eventId) => webhookDeliveryFixture(endpoint, { eventId }))),
          ),
        ),
      );
      for (const eventId of events)
        expect(await expectOk(deliveries.listForEvents([eventId]))).toHaveLength(1);
    });

    it('takes no delivery for an endpoint that does not exist (removed meanwhile)', async () => {
      const { deliveries } = await openFixture(setup);
      const orphan = webhookDeliveryFixture({ id: randomUUID(), managerId: randomUUID() });
      await expectOk(deliveries.insertMissing([orphan]));
      expect(await expectOk(deliveries.find(orphan.id))).toBeNull();
    });

    it("lists an endpoint's deliveries newest first, by status, in pages before a cursor, for its manager only", async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      const other = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      await insertEndpoint(endpoints, other);
      const [low, high] = [randomUUID(), randomUUID()].sort() as [string, string];
      const made = [
        webhookDeliveryFixture(endpoint, { createdAt: at(1) }),
        webhookDeliveryFixture(endpoint, { createdAt: at(2), status: 'failed' }),
        webhookDeliveryFixture(endpoint, { id: low, createdAt: at(3), status: 'succeeded' }),
        webhookDeliveryFixture(endpoint, { id: high, createdAt: at(3) }),
        webhookDeliveryFixture(endpoint, { createdAt: at(4), status: 'failed' }),
      ];
      await expectOk(
        deliveries.insertMissing([...made, webhookDeliveryFixture(other, { createdAt: at(9) })]),
      );
      const newestFirst = [made[4], made[3], made[2], made[1], made[0]].map((d) => d?.id);
      const query = { managerId: manager, endpointId: endpoint.id };

      const all = await expectOk(deliveries.listForEndpoint({ ...query, limit: 10 }));
      expect(all.map(({ id }) => id)).toEqual(newestFirst);
      expect(all[1]).toEqual(made[3]);

      const pages: string[] = [];
      let before: { createdAt: string; id: string } | undefined;
      for (;;) {
        const page = await expectOk(
          deliveries.listForEndpoint({ ...query, limit: 2, ...(before === undefined ? {} : { before }) }),
        );
        expect(page.length).toBeLessThanOrEqual(2);
        if (page.length === 0) break;
        pages.push(...page.map(({ id }) => id));
        const last = page[page.length - 1] as StoredWebhookDelivery;
        before = { createdAt: last.createdAt, id: last.id };
      }
      expect(pages).toEqual(newestFirst);

      const failed = await expectOk(deliveries.listForEndpoint({ ...query, status: 'failed', limit: 10 }));
      expect(failed.map(({ id }) => id)).toEqual([made[4]?.id, made[1]?.id]);
      expect(
        await expectOk(
          deliveries.listForEndpoint({ managerId: randomUUID(), endpointId: endpoint.id, limit: 10 }),
        ),
      ).toEqual([]);
    });

    it('records an attempt only while the stored attempt count is the expected one (compare-and-set)', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      await expectOk(deliveries.insertMissing([delivery]));
      const afterFirst: StoredWebhookDelivery = {
        ...delivery,
        attempts: 1,
        lastAttemptAt: at(1),
        nextAttemptAt: at(2),
        lastStatusCode: null,
        lastError: 'connection refused',
      };
      expect(await expectOk(deliveries.update(afterFirst, 0))).toBe(true);
      expect(await expectOk(deliveries.find(delivery.id))).toEqual(afterFirst);
      // A second worker that also attempted attempt 1 does not overwrite it.
      expect(
        await expectOk(deliveries.update({ ...afterFirst, status: 'succeeded', lastStatusCode: 200 }, 0)),
      ).toBe(false);
      expect(await expectOk(deliveries.find(delivery.id))).toEqual(afterFirst);
      const succeeded: StoredWebhookDelivery = {
        ...afterFirst,
        status: 'succeeded',
        attempts: 2,
        lastAttemptAt: at(2),
        nextAttemptAt: null,
        lastStatusCode: 204,
        lastError: null,
      };
      expect(await expectOk(deliveries.update(succeeded, 1))).toBe(true);
      expect(await expectOk(deliveries.find(delivery.id))).toEqual(succeeded);
      expect(await expectOk(deliveries.update(webhookDeliveryFixture(endpoint), 0))).toBe(false);
    });

    it('of several workers recording the same attempt at once, exactly one does', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      await expectOk(deliveries.insertMissing([delivery]));
      const recorded = await Promise.all(
        Array.from({ length: 6 }, (_, worker) =>
          expectOk(deliveries.update({ ...delivery, attempts: 1, lastStatusCode: 500 + worker }, 0)),
        ),
      );
      expect(recorded.filter(Boolean)).toHaveLength(1);
      expect((await expectOk(deliveries.find(delivery.id)))?.lastStatusCode).toBe(
        500 + recorded.indexOf(true),
      );
    });

    it("claims a pending delivery's next attempt for one worker until the claim runs out", async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      const done = webhookDeliveryFixture(endpoint, {
        status: 'succeeded',
        attempts: 1,
        nextAttemptAt: null,
      });
      await expectOk(deliveries.insertMissing([delivery, done]));
      const [t0, t1, t2] = [new Date(at(0)), new Date(at(1)), new Date(at(2))];
      // Another count of attempts (recorded meanwhile), another status, an unknown delivery: refused.
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 1, t0, t2))).toBe(false);
      expect(await expectOk(deliveries.claimAttempt(done.id, 1, t0, t2))).toBe(false);
      expect(await expectOk(deliveries.claimAttempt(randomUUID(), 0, t0, t2))).toBe(false);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t0, t2))).toBe(true);
      // Held until t2: a second worker is refused before, and takes it over at t2 (the first died).
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t1, t2))).toBe(false);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t2, new Date(at(3))))).toBe(true);
      // A claim is no part of the delivery as read.
      expect(await expectOk(deliveries.find(delivery.id))).toEqual(delivery);
    });

    it('a claim taken again until now by its holder (the end it holds as now) is handed back', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      await expectOk(deliveries.insertMissing([delivery]));
      const [t0, t1, t2] = [new Date(at(0)), new Date(at(1)), new Date(at(30))];
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t0, t2))).toBe(true);
      // Another worker cannot hand back a claim that runs longer than its own.
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t1, t1))).toBe(false);
      // The holder, whose attempt did not start, hands it back: at t1 another worker takes it.
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t2, t1))).toBe(true);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t1, t2))).toBe(true);
    });

    it('recording the attempt ends its claim; a write that adds no attempt (a redelivery) keeps it', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      await expectOk(deliveries.insertMissing([delivery]));
      const [t0, t1, later] = [new Date(at(0)), new Date(at(1)), new Date(at(30))];
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t0, later))).toBe(true);
      const redelivered = { ...delivery, nextAttemptAt: at(1), retryUntil: at(50) };
      expect(await expectOk(deliveries.update(redelivered, 0))).toBe(true);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t1, later))).toBe(false);
      const retrying: StoredWebhookDelivery = {
        ...redelivered,
        attempts: 1,
        lastAttemptAt: at(1),
        nextAttemptAt: at(2),
        lastStatusCode: 503,
        lastError: 'HTTP 503',
      };
      expect(await expectOk(deliveries.update(retrying, 0))).toBe(true);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 0, t1, later))).toBe(false);
      expect(await expectOk(deliveries.claimAttempt(delivery.id, 1, t1, later))).toBe(true);
    });

    it('of several workers claiming the same attempt at once, exactly one takes it', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const delivery = webhookDeliveryFixture(endpoint);
      await expectOk(deliveries.insertMissing([delivery]));
      const claimed = await Promise.all(
        Array.from({ length: 6 }, () =>
          expectOk(deliveries.claimAttempt(delivery.id, 0, new Date(at(0)), new Date(at(1)))),
        ),
      );
      expect(claimed.filter(Boolean)).toHaveLength(1);
    });

    it('keeps what a committed transaction wrote and nothing of a rolled-back one', async () => {
      const { endpoints, deliveries, unitOfWork } = await openFixture(setup);
      const endpoint = webhookEndpointFixture(randomUUID());
      await insertEndpoint(endpoints, endpoint);
      const [kept, dropped] = [webhookDeliveryFixture(endpoint), webhookDeliveryFixture(endpoint)];
      await expectOk(unitOfWork.transaction((stores) => stores.webhookDeliveries.insertMissing([kept])));
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.webhookDeliveries
            .insertMissing([dropped])
            .andThen(() => stores.webhookDeliveries.update({ ...kept, attempts: 1, status: 'succeeded' }, 0))
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      expect(await expectOk(deliveries.find(dropped.id))).toBeNull();
      expect(await expectOk(deliveries.find(kept.id))).toEqual(kept);
    });
  });
};
