import { randomUUID } from 'node:crypto';
import { exampleIndividualPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import type { WebhookAnswer, WebhookRequest, WebhookTransport } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { webhookQueue } from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { countingPool, type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * Two runners (each its own pool and kit, as two processes have) on one PostgreSQL, their webhook
 * jobs expiring after 3 s, deliver to one receiver that answers in 300 ms. A runner used to hold
 * every job it fetched while their attempts waited for the endpoint's two slots; past the expiry the
 * engine handed them to the other runner, which sent them again while the first still did.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const JOB_EXPIRY_SECONDS = 3;

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** A receiver that answers 204 after `delayMs`, and every request it was sent. */
const slowReceiver = (delayMs: number) => {
  const sent: WebhookRequest[] = [];
  const transport: WebhookTransport = {
    send: (request) => {
      sent.push(request);
      return ResultAsync.fromSafePromise(
        new Promise<WebhookAnswer>((resolve) =>
          setTimeout(() => resolve({ type: 'answered', statusCode: 204, retryAfter: null }), delayMs),
        ),
      );
    },
  };
  return { transport, sent };
};

it('sends each event once to a slow receiver, however many jobs wait for its slots, and no job outlives its expiry', async () => {
  const receiver = slowReceiver(300);
  const memory = createMemoryAdapters();
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const runners = [];
  const started: Array<{ close(): Promise<void> }> = [];
  const ownPool = countingPool(database.connectionString, { max: 5 }).pool;
  // The runners first, then the pool of the second (the first runs on the database's own).
  onTestFinished(async () => {
    await Promise.all(started.map((runner) => runner.close()));
    await ownPool.end();
  });
  for (let i = 0; i < 2; i += 1) {
    const pool = i === 0 ? database.pool : ownPool;
    const adapters = createPostgresAdapters({
      pool,
      schema: database.schema,
      webhookJobExpirySeconds: JOB_EXPIRY_SECONDS,
    });
    const { kit } = kitOnPostgres(
      adapters,
      { webhookTransport: receiver.transport, options: { webhookAttemptTimeoutMs: 1_000 } },
      memory,
    );
    runners.push({ kit, pool });
  }
  const [first] = runners;
  if (first === undefined) throw new Error('no runner');
  (
    await first.kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' })
  )._unsafeUnwrap();
  // 40 creates: 40 jobs of two events each, 80 deliveries to one endpoint (12 s at two at a time).
  for (let i = 0; i < 40; i += 1) {
    memory.testing.putTemporaryFile(`manager:${manager.managerId}`, `id-${i}.pdf`, new Uint8Array(8));
    (
      await first.kit.clients.createIndividual(
        manager,
        exampleIndividualPayload({ idDocuments: [`id-${i}.pdf`] }),
      )
    )._unsafeUnwrap();
  }
  for (const { kit, pool } of runners) {
    const runner = await startPostgresJobRunner({
      pool,
      kit,
      schema: database.schema,
      maintenanceIntervalSeconds: 1,
      orphanSweepCron: null,
      retentionRedactionCron: null,
    });
    started.push(runner);
  }
  const ids = () => receiver.sent.map((request) => request.headers['webhook-id']);
  await waitFor(() => new Set(ids()).size === 80, 60_000);
  // Room for a job handed out again (expiry, then the engine's maintenance) to send once more.
  await new Promise((resolve) => setTimeout(resolve, (JOB_EXPIRY_SECONDS + 2) * 1_000));
  const timesSent = new Map<string, number>();
  for (const id of ids()) timesSent.set(String(id), (timesSent.get(String(id)) ?? 0) + 1);
  expect([...timesSent.values()].filter((times) => times > 1)).toEqual([]);
  expect(receiver.sent).toHaveLength(80);
  const { rows } = await database.pool.query<{ expired: number }>(
    `SELECT count(*)::int AS expired FROM ${database.tables.jobSchema}.job
     WHERE name = $1 AND (retry_count > 0 OR state = 'failed')`,
    [webhookQueue],
  );
  expect(rows).toEqual([{ expired: 0 }]);
  const pending = await database.pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${database.tables.webhookDeliveries}
     WHERE manager_id = $1 AND status <> 'succeeded'`,
    [manager.managerId],
  );
  expect(pending.rows).toEqual([{ count: 0 }]);
});
