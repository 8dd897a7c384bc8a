import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, type ManagerPrincipal, type OnboardingKit } from '@onboarding-kit/core';
import type { WebhookTransport } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type WebhookFairnessContractFixture = Teardown & {
  /** A kit on the back end, sending its webhooks through the transport given to setup. */
  readonly kit: OnboardingKit;
  /**
   * Starts running the webhook jobs as this back end's runner does, in one process, one job at a
   * time (the least capacity: fairness must not need more); resolves to how to stop it.
   */
  startDelivering(): Promise<() => Promise<void>>;
};

export type WebhookFairnessContractOptions = {
  readonly name: string;
  readonly setup: (transport: WebhookTransport) => Promise<WebhookFairnessContractFixture>;
};

const BURST = 20;

/**
 * Webhook delivery is fair between managers: on any back end, one manager's burst of events does
 * not hold back another manager's first webhook. Order is counted, not timed: the requests the
 * receivers were sent, in the order sent.
 */
export const runWebhookFairnessContract = ({ name, setup }: WebhookFairnessContractOptions): void => {
  describe(`Webhook fairness contract: ${name}`, () => {
    it("sends another manager's webhook in turn with one manager's burst, not after it", async () => {
      const [busyUrl, otherUrl] = ['https://busy.example.com/hooks', 'https://other.example.com/hooks'];
      const sent: string[] = [];
      let otherSent: () => void = () => undefined;
      const otherReached = new Promise<void>((resolve) => {
        otherSent = resolve;
      });
      const fixture = await openFixture(() =>
        setup({
          send: (request) => {
            sent.push(request.url);
            if (request.url === otherUrl) otherSent();
            return okAsync({ type: 'answered', statusCode: 200, retryAfter: null });
          },
        }),
      );
      const { kit } = fixture;
      const busy: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const other: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      await expectOk(kit.webhooks.createEndpoint(busy, { url: busyUrl }));
      await expectOk(kit.webhooks.createEndpoint(other, { url: otherUrl }));
      for (let i = 0; i < BURST; i += 1)
        await expectOk(kit.clients.createEntity(busy, exampleEntityPayload()));
      await expectOk(kit.clients.createEntity(other, exampleEntityPayload()));

      // Stopped when the test ends, however it ends (a time-out included).
      onTestFinished(await fixture.startDelivering());
      await otherReached;
      // In arrival order the other manager's event went after all of the burst (20 requests at
      // least). In turns (a second each on PostgreSQL), after the burst's jobs whose turn came
      // before it (the creates take a second or two there) and the first, two events each at most.
      const ahead = sent.indexOf(otherUrl);
      expect(ahead).toBeGreaterThanOrEqual(0);
      expect(ahead).toBeLessThanOrEqual(6);
    });
  });
};
