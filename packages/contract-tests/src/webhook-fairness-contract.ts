import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, type ManagerPrincipal, type OnboardingKit } from '@onboarding-kit/core';
import type { WebhookTransport } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type WebhookFairnessContractFixture = Teardown & {
  /** A kit on the back end, delivering through the transport given to setup. */
  readonly kit: OnboardingKit;
  /**
   * Starts running the webhook jobs as this back end's runner does, one job at a time (the least
   * capacity: fairness must not need more); resolves to how to stop it.
   */
  startDelivery(): Promise<() => Promise<void>>;
};

export type WebhookFairnessContractOptions = {
  readonly name: string;
  readonly setup: (transport: WebhookTransport) => Promise<WebhookFairnessContractFixture>;
};

const BURST = 20;

/**
 * Webhook delivery is fair between managers: on any back end, one manager's burst of events does
 * not hold back another manager's event; its jobs take turns with the burst's. Order is counted,
 * not timed: the requests the receivers were sent, in the order sent.
 */
export const runWebhookFairnessContract = ({ name, setup }: WebhookFairnessContractOptions): void => {
  describe(`Webhook fairness contract: ${name}`, () => {
    it("sends another manager's event in turn with one manager's burst, not after it", async () => {
      const busy: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const other: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const [busyUrl, otherUrl] = ['https://busy.example.com/hooks', 'https://other.example.com/hooks'];
      const sent: string[] = [];
      let otherSent: () => void = () => undefined;
      const otherReached = new Promise<void>((resolve) => {
        otherSent = resolve;
      });
      const transport: WebhookTransport = {
        send: (request) => {
          sent.push(request.url);
          if (request.url === otherUrl) otherSent();
          return okAsync({ type: 'answered', statusCode: 200, retryAfter: null });
        },
      };
      const { kit, startDelivery } = await openFixture(() => setup(transport));
      await expectOk(kit.webhooks.createEndpoint(busy, { url: busyUrl }));
      await expectOk(kit.webhooks.createEndpoint(other, { url: otherUrl }));
      // Each create is one job of its events (one or two), enqueued in this order.
      for (let i = 0; i < BURST; i += 1) {
        await expectOk(kit.clients.createEntity(busy, exampleEntityPayload()));
      }
      await expectOk(kit.clients.createEntity(other, exampleEntityPayload()));

      const stop = await startDelivery();
      try {
        await otherReached;
      } finally {
        await stop();
      }
      // In turn: the burst's first job and at most one more before it (two events each at most),
      // where arrival order sends all of the burst's first (at least one event per create).
      const ahead = sent.indexOf(otherUrl);
      expect(ahead).toBeGreaterThanOrEqual(0);
      expect(ahead).toBeLessThanOrEqual(4);
    });
  });
};
