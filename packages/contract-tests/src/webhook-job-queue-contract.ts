import { randomUUID } from 'node:crypto';
import { CLIENT_EVENT_API_VERSION } from '@onboarding-kit/core';
import type { LoggedEvent, UnitOfWork, WebhookEndpointStore, WebhookJob } from '@onboarding-kit/core/adapter';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';
import { insertEndpoint, webhookEndpointFixture } from './webhook-endpoint-store-contract.js';

/** A queued job and the instant it becomes due. */
export type QueuedWebhookJob = { readonly job: WebhookJob; readonly runAt: Date };

export type WebhookJobQueueContractFixture = Teardown & {
  readonly endpoints: WebhookEndpointStore;
  /** The queue is reached through a transaction's stores only: jobs commit with their command. */
  readonly unitOfWork: UnitOfWork;
  readonly inspect: {
    /** Every committed job not yet taken by a runner, in any order. */
    readonly listJobs: () => Promise<QueuedWebhookJob[]>;
  };
};

export type WebhookJobQueueContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<WebhookJobQueueContractFixture>;
};

const promoted = (managerId: string): LoggedEvent => {
  const clientId = randomUUID();
  return {
    managerId,
    clientId,
    event: {
      id: randomUUID(),
      type: 'documents.promoted',
      apiVersion: CLIENT_EVENT_API_VERSION,
      createdAt: new Date().toISOString(),
      data: { clientId, documents: [`${randomUUID()}_passport.pdf`] },
    },
  };
};

const eventIdsOf = (jobs: readonly QueuedWebhookJob[]): string[][] =>
  jobs.flatMap(({ job }) => (job.type === 'deliver-events' ? [[...job.eventIds]] : []));

/** WebhookJobQueue (core/src/ports/webhook-job-queue.ts): delivery work, enqueued with its command. */
export const runWebhookJobQueueContract = ({ name, setup }: WebhookJobQueueContractOptions): void => {
  describe(`WebhookJobQueue contract: ${name}`, () => {
    it("enqueues one job for a command's events, with only those of managers that have an endpoint", async () => {
      const { endpoints, unitOfWork, inspect } = await openFixture(setup);
      const [subscribed, unsubscribed] = [randomUUID(), randomUUID()];
      await insertEndpoint(endpoints, webhookEndpointFixture(subscribed));
      await insertEndpoint(endpoints, webhookEndpointFixture(subscribed));
      const events = [promoted(subscribed), promoted(unsubscribed), promoted(subscribed)];
      await expectOk(unitOfWork.transaction((stores) => stores.webhookJobs.enqueueEventDeliveries(events)));
      const mine = eventIdsOf(await inspect.listJobs()).filter((ids) =>
        ids.some((id) => events.some(({ event }) => event.id === id)),
      );
      expect(mine).toEqual([[events[0]?.event.id, events[2]?.event.id]]);
    });

    it('enqueues nothing for events whose managers have no endpoint, or for no events', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const before = await inspect.listJobs();
      const lonely = [promoted(randomUUID()), promoted(randomUUID())];
      await expectOk(unitOfWork.transaction((stores) => stores.webhookJobs.enqueueEventDeliveries(lonely)));
      await expectOk(unitOfWork.transaction((stores) => stores.webhookJobs.enqueueEventDeliveries([])));
      const ids = eventIdsOf(await inspect.listJobs()).flat();
      expect(ids.filter((id) => lonely.some(({ event }) => event.id === id))).toEqual([]);
      expect((await inspect.listJobs()).length).toBe(before.length);
    });

    it('enqueues an attempt of a delivery due at the instant asked (to the second)', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const deliveryId = randomUUID();
      const runAt = new Date(Date.now() + 3_600_000);
      await expectOk(
        unitOfWork.transaction((stores) => stores.webhookJobs.enqueueAttempt(deliveryId, runAt)),
      );
      const queued = (await inspect.listJobs()).filter(
        ({ job }) => job.type === 'attempt-delivery' && job.deliveryId === deliveryId,
      );
      expect(queued.map(({ job }) => job)).toEqual([{ type: 'attempt-delivery', deliveryId }]);
      expect(Math.abs((queued[0]?.runAt.getTime() ?? 0) - runAt.getTime())).toBeLessThan(1_000);
    });

    it('enqueues one job attempting several put-off deliveries, due at the instant asked', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const endpointId = randomUUID();
      const deliveries = [randomUUID(), randomUUID(), randomUUID()].map((deliveryId) => ({
        deliveryId,
        endpointId,
      }));
      const runAt = new Date(Date.now() + 60_000);
      await expectOk(
        unitOfWork.transaction((stores) => stores.webhookJobs.enqueueAttempts(deliveries, runAt)),
      );
      const queued = (await inspect.listJobs()).filter(
        ({ job }) => job.type === 'attempt-deliveries' && job.deliveries[0]?.endpointId === endpointId,
      );
      expect(queued.map(({ job }) => job)).toEqual([{ type: 'attempt-deliveries', deliveries }]);
      expect(Math.abs((queued[0]?.runAt.getTime() ?? 0) - runAt.getTime())).toBeLessThan(1_000);
    });

    it('keeps no job of a rolled-back transaction', async () => {
      const { endpoints, unitOfWork, inspect } = await openFixture(setup);
      const manager = randomUUID();
      await insertEndpoint(endpoints, webhookEndpointFixture(manager));
      const event = promoted(manager);
      const deliveryId = randomUUID();
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.webhookJobs
            .enqueueEventDeliveries([event])
            .andThen(() => stores.webhookJobs.enqueueAttempt(deliveryId, new Date()))
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      const jobs = await inspect.listJobs();
      expect(eventIdsOf(jobs).flat()).not.toContain(event.event.id);
      expect(jobs.some(({ job }) => job.type === 'attempt-delivery' && job.deliveryId === deliveryId)).toBe(
        false,
      );
    });
  });
};
