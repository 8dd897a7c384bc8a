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
  failingSince: null,
  disabledAt: null,
  disabledReason: null,
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

    it('keeps the failing and disabled state as inserted', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager, {
        failingSince: '2031-01-01T00:00:00.123Z',
        disabledAt: '2031-01-06T00:00:00.456Z',
        disabledReason: 'failing',
      });
      await insertEndpoint(endpoints, endpoint);
      expect(await expectOk(endpoints.find(manager, endpoint.id))).toEqual(endpoint);
    });

    it('notes failures from the first one, disables after the threshold, and a success clears the streak', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      const other = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      await insertEndpoint(endpoints, other);
      const day = 24 * 60 * 60_000;
      const at = (days: number) => new Date(Date.parse('2031-02-01T00:00:00.000Z') + days * day);
      const note = (result: 'succeeded' | 'failed' | 'gone', days: number, id = endpoint.id) =>
        expectOk(endpoints.noteAttemptResult(manager, id, result, at(days), 5 * day));
      const state = async (id = endpoint.id) => {
        const found = await expectOk(endpoints.find(manager, id));
        return {
          failingSince: found?.failingSince,
          disabledAt: found?.disabledAt,
          disabledReason: found?.disabledReason,
        };
      };

      expect(await note('failed', 0)).toBeNull();
      expect(await note('failed', 1)).toBeNull();
      expect(await state()).toEqual({
        failingSince: at(0).toISOString(),
        disabledAt: null,
        disabledReason: null,
      });
      expect(await note('succeeded', 2)).toBeNull();
      expect((await state()).failingSince).toBeNull();
      // A new streak starts at its own first failure: 4.9 days of it disable nothing.
      expect(await note('failed', 3)).toBeNull();
      expect(await note('failed', 7.9)).toBeNull();
      expect((await state()).disabledAt).toBeNull();
      expect(await note('failed', 8)).toBe('failing');
      const disabled = { failingSince: at(3).toISOString(), disabledAt: at(8).toISOString() };
      expect(await state()).toEqual({ ...disabled, disabledReason: 'failing' });
      // Disabled once: later failures and a 410 keep the first disabling; a success enables nothing.
      expect(await note('failed', 9)).toBeNull();
      expect(await note('gone', 9)).toBeNull();
      expect(await state()).toEqual({ ...disabled, disabledReason: 'failing' });
      expect(await note('succeeded', 10)).toBeNull();
      expect(await state()).toEqual({
        failingSince: null,
        disabledAt: at(8).toISOString(),
        disabledReason: 'failing',
      });
      // The other endpoint of the manager was untouched all along.
      expect(await state(other.id)).toEqual({ failingSince: null, disabledAt: null, disabledReason: null });

      // 410 Gone disables at once, even after a success.
      expect(await note('succeeded', 0, other.id)).toBeNull();
      expect(await note('gone', 1, other.id)).toBe('gone');
      expect(await state(other.id)).toEqual({
        failingSince: at(1).toISOString(),
        disabledAt: at(1).toISOString(),
        disabledReason: 'gone',
      });
    });

    it("notes and enables a manager's own endpoint only", async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      const at = new Date('2031-02-01T00:00:00.000Z');
      expect(
        await expectOk(endpoints.noteAttemptResult(randomUUID(), endpoint.id, 'gone', at, 1000)),
      ).toBeNull();
      expect(await expectOk(endpoints.noteAttemptResult(manager, randomUUID(), 'gone', at, 1000))).toBeNull();
      expect(await expectOk(endpoints.find(manager, endpoint.id))).toEqual(endpoint);
      expect(await expectOk(endpoints.noteAttemptResult(manager, endpoint.id, 'gone', at, 1000))).toBe(
        'gone',
      );

      expect(await expectOk(endpoints.enable(randomUUID(), endpoint.id))).toBe(false);
      expect((await expectOk(endpoints.find(manager, endpoint.id)))?.disabledReason).toBe('gone');
      expect(await expectOk(endpoints.enable(manager, randomUUID()))).toBe(false);
      expect(await expectOk(endpoints.enable(manager, endpoint.id))).toBe(true);
      // Enabled, with its streak cleared: as it was inserted.
      expect(await expectOk(endpoints.find(manager, endpoint.id))).toEqual(endpoint);
      expect(await expectOk(endpoints.enable(manager, endpoint.id))).toBe(true);
    });

    it('of attempts ending at once, exactly one disables the endpoint, and the streak keeps its first failure', async () => {
      const { endpoints } = await openFixture(setup);
      const manager = randomUUID();
      const endpoint = webhookEndpointFixture(manager);
      await insertEndpoint(endpoints, endpoint);
      const base = Date.parse('2031-02-01T00:00:00.000Z');
      const disabling = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          expectOk(endpoints.noteAttemptResult(manager, endpoint.id, 'gone', new Date(base + i), 1000)),
        ),
      );
      expect(disabling.filter((reason) => reason === 'gone')).toHaveLength(1);
      const found = await expectOk(endpoints.find(manager, endpoint.id));
      expect(found?.disabledReason).toBe('gone');
      // The one that disabled it set both instants (its own), and no later one moved them.
      expect(found?.disabledAt).toBe(found?.failingSince);
    });
  });
};
