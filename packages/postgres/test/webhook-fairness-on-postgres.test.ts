import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import type { WebhookTransport } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const BURST = 20;

/**
 * One manager's burst of creates, then one create of another manager, then one runner taking one
 * job at a time (the least capacity: fairness must not need more). Order is counted, not timed: the
 * requests the receivers were sent, in the order sent. In arrival order the other manager's event
 * went after all of the burst (20 requests at least); in turns, after the burst's first job or so.
 */
it("sends another manager's webhook in turn with one manager's burst, not after it", async () => {
  const busy: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const other: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const [busyUrl, otherUrl] = ['https://busy.example.com/hooks', 'https://other.example.com/hooks'];
  const sent: string[] = [];
  let otherSent: () => void = () => undefined;
  const otherReached = new Promise<void>((resolve) => {
    otherSent = resolve;
  });
  const webhookTransport: WebhookTransport = {
    send: (request) => {
      sent.push(request.url);
      if (request.url === otherUrl) otherSent();
      return okAsync({ type: 'answered', statusCode: 200, retryAfter: null });
    },
  };
  const { kit } = kitOnPostgres(database.adapters, { webhookTransport });
  (await kit.webhooks.createEndpoint(busy, { url: busyUrl }))._unsafeUnwrap();
  (await kit.webhooks.createEndpoint(other, { url: otherUrl }))._unsafeUnwrap();
  for (let i = 0; i < BURST; i += 1)
    (await kit.clients.createEntity(busy, exampleEntityPayload()))._unsafeUnwrap();
  (await kit.clients.createEntity(other, exampleEntityPayload()))._unsafeUnwrap();

  const runner = await startPostgresJobRunner({
    pool: database.pool,
    kit,
    schema: database.schema,
    batchSize: 1,
    maxJobsInHand: 1,
    pollingIntervalSeconds: 0.5,
    orphanSweepCron: null,
    retentionRedactionCron: null,
  });
  onTestFinished(() => runner.close());
  await otherReached;
  const ahead = sent.indexOf(otherUrl);
  expect(ahead).toBeGreaterThanOrEqual(0);
  // The burst's jobs take one turn a second: those whose turn came before the other's (the creates
  // took a second or two) and the first, two events each at most.
  expect(ahead).toBeLessThanOrEqual(6);
});
