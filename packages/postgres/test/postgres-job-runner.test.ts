import type { WebhookRequest } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  idempotencyPurgeQueue,
  orphanSweepQueue,
  retentionRedactionQueue,
} from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { countingPool, type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
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
  it('closes only once the purge fetched on its way has ended, and no statement of it comes after', async () => {
    const { kit } = await kitWithEndpoint();
    const order: string[] = [];
    const purging = {
      ...kit,
      idempotency: {
        ...kit.idempotency,
        // A purge that takes 300 ms, so that the runner's close and the pool's end fall within it.
        purgeExpired: () => {
          order.push('purge started');
          return ResultAsync.fromSafePromise(new Promise((resolve) => setTimeout(resolve, 300)))
            .andThen(() => kit.idempotency.purgeExpired())
            .map((purged) => {
              order.push('purge ended');
              return purged;
            });
        },
      },
    };
    // The engine's way into the database: its first fetch of the purge queue is held until released,
    // and what is sent once `close` resolved is noted (it would reach a pool the caller ended).
    let closed = false;
    const sentAfterClose: string[] = [];
    let fetchHeld: () => void = () => undefined;
    const fetchOnItsWay = new Promise<void>((resolve) => {
      fetchHeld = resolve;
    });
    let releaseFetch: () => void = () => undefined;
    const fetchReleased = new Promise<void>((resolve) => {
      releaseFetch = resolve;
    });
    let held = false;
    // A pool of the runner's own, ended as the demo ends its pool once the runner is closed.
    const { pool: runnerPool } = countingPool(database.connectionString, { max: 2 });
    runnerPool.on('error', () => undefined);
    const gate = {
      query: async (statement: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
        const text = typeof statement === 'string' ? statement : statement.text;
        const args = typeof statement === 'string' ? values : statement.values;
        if (closed) sentAfterClose.push(text);
        if (!held && args?.[0] === idempotencyPurgeQueue && text.includes('SKIP LOCKED')) {
          held = true;
          fetchHeld();
          await fetchReleased;
        }
        return runnerPool.query(statement, values);
      },
    } as unknown as Pool;

    const runner = await startRunner(purging, { pool: gate, orphanSweepCron: null });
    await fetchOnItsWay;
    await runner.boss.send(idempotencyPurgeQueue, {});
    const closing = runner.close().then(() => {
      closed = true;
      order.push('closed');
    });
    // pg-boss's `work` let its stop resolve here, the fetch still on its way.
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseFetch();
    await closing;
    // pg-boss's `work` ran the purge after its stop and completed the job on this pool, ended by
    // then: an unhandled rejection ("Cannot use a pool after calling end on the pool").
    await waitFor(() => order.includes('purge started'), 5_000);
    await runnerPool.end();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(order).toEqual(['purge started', 'purge ended', 'closed']);
    expect(sentAfterClose).toEqual([]);
  });
});
