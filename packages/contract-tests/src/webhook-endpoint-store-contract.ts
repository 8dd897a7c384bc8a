import { randomUUID } from 'node:crypto';
import type {
  StoredWebhookDelivery,
  StoredWebhookEndpoint,
  WebhookDeliveryStore,
  WebhookEndpointStore,
} from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type WebhookStoresContractFixture = Teardown & {
  readonly endpoints: WebhookEndpointStore;
  readonly deliveries: WebhookDeliveryStore;
};

export type WebhookStoresContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<WebhookStoresContractFixture>;
};

/** An endpoint as the endpoint service stores one; `createdAt` at millisecond precision. */
export const webhookEndpointFixture = (
  managerId: string,
  overrides: Partial<StoredWebhookEndpoint> = {},
): StoredWebhookEndpoint => ({
  id: randomUUID(),
  managerId,
  url: 'https://portal.example.com/hooks/onboarding',
  description: null,
  eventTypes: null,
  createdAt: '2031-01-01T00:00:00.000Z',
  secrets: [{ secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`, expiresAt: null }],
  ...overrides,
});

/** A new delivery of one event to one endpoint, as the delivery service creates it. */
export const webhookDeliveryFixture = (
  endpoint: Pick<StoredWebhookEndpoint, 'id' | 'managerId'>,
  overrides: Partial<StoredWebhookDelivery> = {},
): StoredWebhookDelivery => ({
  id: randomUUID(),
  managerId: endpoint.managerId,
  endpointId: endpoint.id,
  eventId: randomUUID(),
  eventType: 'client.approved',
  status: 'pending',
  attempts: 0,
  createdAt: '2031-01-01T00:00:00.000Z',
  retryUntil: '2031-01-04T00:00:00.000Z',
  lastAttemptAt: null,
  nextAttemptAt: '2031-01-01T00:00:00.000Z',
  lastStatusCode: null,
  lastError: null,
  ...overrides,
});

/** Inserts an endpoint under the kit's default limit, failing the test when it is refused. */
export const insertEndpoint = async (endpoints: WebhookEndpointStore, endpoint: StoredWebhookEndpoint) => {
  expect(await expectOk(endpoints.insertWithinLimit(endpoint, 20))).toBe(true);
};

/** WebhookEndpointStore (core/src/ports/webhook-endpoint-store.ts): a manager's endpoints and their secrets. */
export const runWebhookEndpointStoreContract = ({ name, setup }: WebhookStoresContractOptions): void => {
  describe(`WebhookEndpointStore contract: ${name}`, () => {
    it('keeps an endpoint exactly as inserted, and shows it to its manager only', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager, {
        description: 'Compliance desk — “ünïcode” and a quote \' " \\',
        eventTypes: ['client.approved', 'documents.promoted'],
        secrets: [
          { secret: 'whsec_bmV3ZXN0', expiresAt: null },
          { secret: 'whsec_b2xkZXI=', expiresAt: '2031-01-02T03:04:05.678Z' },
        ],
      });
      await insertEndpoint(endpoints, endpoint);
      expect(await expectOk(endpoints.find(manager, endpoint.id))).toEqual(endpoint);
      expect(await expectOk(endpoints.find(randomUUID(), endpoint.id))).toBeNull();
      expect(await expectOk(endpoints.find(manager, randomUUID()))).toBeNull();
      expect(await expectOk(endpoints.listForManager(randomUUID()))).toEqual([]);
      // The read a rotation locks reads the same, for its manager only.
      expect(await expectOk(endpoints.findForUpdate(manager, endpoint.id))).toEqual(endpoint);
      expect(await expectOk(endpoints.findForUpdate(randomUUID(), endpoint.id))).toBeNull();
    });

    it("lists a manager's endpoints oldest first (then by id), and no one else's", async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const [a, b] = [randomUUID(), randomUUID()].sort();
      const inserted = [
        webhookEndpointFixture(manager, { createdAt: '2031-01-03T00:00:00.000Z' }),
        webhookEndpointFixture(manager, { id: b as string, createdAt: '2031-01-01T00:00:00.000Z' }),
        webhookEndpointFixture(manager, { id: a as string, createdAt: '2031-01-01T00:00:00.000Z' }),
        webhookEndpointFixture(manager, { createdAt: '2031-01-02T00:00:00.000Z', eventTypes: [] }),
      ];
      for (const endpoint of inserted) await insertEndpoint(endpoints, endpoint);
      await insertEndpoint(endpoints, webhookEndpointFixture(randomUUID()));
      const listed = await expectOk(endpoints.listForManager(manager));
      expect(listed.map(({ id }) => id)).toEqual([a, b, inserted[3]?.id, inserted[0]?.id]);
      expect(listed[2]).toEqual(inserted[3]);
    });

    it("refuses an endpoint past the manager's limit, and counts no other manager's", async () => {
      const { endpoints } = await openFixture(setup);
      const [manager, other] = [randomUUID(), randomUUID()];
      await insertEndpoint(endpoints, webhookEndpointFixture(other));
      for (let i = 0; i < 3; i += 1)
        expect(await expectOk(endpoints.insertWithinLimit(webhookEndpointFixture(manager), 3))).toBe(true);
      const refused = webhookEndpointFixture(manager);
      expect(await expectOk(endpoints.insertWithinLimit(refused, 3))).toBe(false);
      expect(await expectOk(endpoints.find(manager, refused.id))).toBeNull();
      expect(await expectOk(endpoints.listForManager(manager))).toHaveLength(3);
    });

    it('holds the limit under bursts of insertions at once', async () => {
      const { endpoints } = await openFixture(setup);
      for (let burst = 0; burst < 10; burst += 1) {
        const manager = randomUUID();
        const accepted = await Promise.all(
          Array.from({ length: 16 }, () =>
            expectOk(endpoints.insertWithinLimit(webhookEndpointFixture(manager), 2)),
          ),
        );
        expect(accepted.filter(Boolean)).toHaveLength(2);
        expect(await expectOk(endpoints.listForManager(manager))).toHaveLength(2);
      }
    });

    it('replaces the secrets only while they are still the expected ones (compare-and-set)', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      const rotated = [
        { secret: 'whsec_cm90YXRlZA==', expiresAt: null },
        { secret: endpoint.secrets[0]?.secret as string, expiresAt: '2031-01-02T00:00:00.000Z' },
      ];
      expect(
        await expectOk(endpoints.replaceSecrets(randomUUID(), endpoint.id, endpoint.secrets, rotated)),
      ).toBe(false);
      expect(await expectOk(endpoints.replaceSecrets(manager, endpoint.id, endpoint.secrets, rotated))).toBe(
        true,
      );
      expect((await expectOk(endpoints.find(manager, endpoint.id)))?.secrets).toEqual(rotated);
      // The same rotation again starts from secrets that are no longer there.
      expect(
        await expectOk(
          endpoints.replaceSecrets(manager, endpoint.id, endpoint.secrets, [
            { secret: 'whsec_bG9zdA==', expiresAt: null },
          ]),
        ),
      ).toBe(false);
      expect((await expectOk(endpoints.find(manager, endpoint.id)))?.secrets).toEqual(rotated);
      expect(await expectOk(endpoints.replaceSecrets(manager, randomUUID(), rotated, endpoint.secrets))).toBe(
        false,
      );
    });

    it('of two rotations from the same secrets at once, exactly one wins', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      const candidates = Array.from({ length: 6 }, (_, index) => [
        { secret: `whsec_${Buffer.from(`candidate-${index}`).toString('base64')}`, expiresAt: null },
      ]);
      const won = await Promise.all(
        candidates.map((next) =>
          expectOk(endpoints.replaceSecrets(manager, endpoint.id, endpoint.secrets, next)),
        ),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = candidates[won.indexOf(true)];
      expect((await expectOk(endpoints.find(manager, endpoint.id)))?.secrets).toEqual(winner);
    });

    it('removes an endpoint of its manager only, and its deliveries with it', async () => {
      const { endpoints, deliveries } = await openFixture(setup);
      const manager = randomUUID();
      const [removed, kept] = [webhookEndpointFixture(manager), webhookEndpointFixture(manager)];
      await insertEndpoint(endpoints, removed);
      await insertEndpoint(endpoints, kept);
      const event = randomUUID();
      const [ofRemoved, ofKept] = [
        webhookDeliveryFixture(removed, { eventId: event }),
        webhookDeliveryFixture(kept, { eventId: event }),
      ];
      await expectOk(deliveries.insertMissing([ofRemoved, ofKept]));

      expect(await expectOk(endpoints.remove(randomUUID(), removed.id))).toBe(false);
      expect(await expectOk(endpoints.find(manager, removed.id))).toEqual(removed);
      expect(await expectOk(endpoints.remove(manager, removed.id))).toBe(true);
      expect(await expectOk(endpoints.find(manager, removed.id))).toBeNull();
      expect(await expectOk(endpoints.remove(manager, removed.id))).toBe(false);

      expect(await expectOk(deliveries.find(ofRemoved.id))).toBeNull();
      expect(await expectOk(deliveries.listForEvents([event]))).toEqual([ofKept]);
      expect((await expectOk(endpoints.listForManager(manager))).map(({ id }) => id)).toEqual([kept.id]);
    });
  });
};
