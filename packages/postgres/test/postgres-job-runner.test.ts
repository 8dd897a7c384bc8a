import type { WebhookRequest } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  idempotencyPurgeQueue,
  orphanSweepQueue,
  retentionRedactionQueue,
} from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

/** The kit on this test's schema with a manager that has one endpoint. */
const kitWithEndpoint = async () => {
  const { kit, receiver, principal, createClient } = webhookKitOnPostgres(database);
  (await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' }))._unsafeUnwrap();
  const createClients = async (count: number) => {
    for (let i = 0; i < count; i += 1) await createClient();
  };
  return { kit, receiver, createClients };
};

const startRunner = async (
  kit: Parameters<typeof startPostgresJobRunner>[0]['kit'],
  options: Partial<Parameters<typeof startPostgresJobRunner>[0]> = {},
) => {
  const runner = await startPostgresJobRunner({
    pool: database.pool,
    kit,
    schema: database.schema,
    ...options,
  });
  onTestFinished(() => runner.close());
  return runner;
};

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('startPostgresJobRunner', () => {
  it('works a backlog larger than a batch without waiting the polling interval between batches', async () => {
    const { kit, receiver, createClients } = await kitWithEndpoint();
    // 40 commands, one job each (client.created and documents.promoted: 80 events).
    await createClients(40);
    const started = Date.now();
    // Eight full batches of 5; with a 10 s polling interval, waiting it once would take 10 s.
    await startRunner(kit, { batchSize: 5, workers: 1, pollingIntervalSeconds: 10 });
    await waitFor(() => new Set(receiver.sent.map((r) => r.headers['webhook-id'])).size === 80, 9_000);
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('attempts a delivery the receiver refused again, on the engine, until it is accepted', async () => {
    const { kit, receiver, createClients } = await kitWithEndpoint();
    const attempts = new Map<string, WebhookRequest[]>();
    receiver.answerWith((request) => {
      const id = request.headers['webhook-id'] ?? '';
      attempts.set(id, [...(attempts.get(id) ?? []), request]);
      return attempts.get(id)?.length === 1
        ? { type: 'answered', statusCode: 503, retryAfter: '1' }
        : { type: 'answered', statusCode: 204, retryAfter: null };
    });
    await createClients(1);
    await startRunner(kit, { pollingIntervalSeconds: 0.5 });
    // The first retry comes 2.5–5 s after the refusal (5 s with equal jitter), never before Retry-After.
    await waitFor(
      () => attempts.size === 2 && [...attempts.values()].every((sent) => sent.length === 2),
      12_000,
    );
    for (const [first, second] of attempts.values()) expect(second?.body).toBe(first?.body);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Accepted: not attempted a third time.
    expect(receiver.sent).toHaveLength(4);
  });

  it("puts the purge, the sweep and the retention redaction on the engine's schedules, and takes them off when asked", async () => {
    const { kit } = await kitWithEndpoint();
    const runner = await startRunner(kit, { idempotencyPurgeCron: '*/5 * * * *' });
    const schedules = await runner.boss.getSchedules();
    expect(schedules.map(({ name, cron }) => [name, cron]).sort()).toEqual(
      [
        [idempotencyPurgeQueue, '*/5 * * * *'],
        [orphanSweepQueue, '17 * * * *'],
        [retentionRedactionQueue, '41 * * * *'],
      ].sort(),
    );
    await runner.close();
    const withoutSweep = await startRunner(kit, { orphanSweepCron: null, retentionRedactionCron: null });
    expect((await withoutSweep.boss.getSchedules()).map(({ name }) => name)).toEqual([idempotencyPurgeQueue]);
  });
});
