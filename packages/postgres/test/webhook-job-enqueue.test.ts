import { randomUUID } from 'node:crypto';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  systemClock,
  type WebhookJob,
  type WebhookRequest,
} from '@onboarding-kit/core';
import { createMemoryAdapters, createRandomIds } from '@onboarding-kit/memory';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookQueue } from '../src/postgres-job-engine.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const setup = () => {
  const memory = createMemoryAdapters();
  const sent: WebhookRequest[] = [];
  const kit = createOnboardingKit({
    ...database.adapters,
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: createRandomIds(),
    webhookTransport: {
      send: (request) => {
        sent.push(request);
        return okAsync({ type: 'answered', statusCode: 204, retryAfter: null });
      },
    },
  });
  const principal: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  let files = 0;
  /** One create (its claim included); the statements it sent. */
  const create = async (): Promise<number> => {
    files += 1;
    const filename = `id-${files}.pdf`;
    memory.testing.putTemporaryFile(`manager:${principal.managerId}`, filename, new Uint8Array(8));
    const before = database.queryCount();
    (
      await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: [filename] }))
    )._unsafeUnwrap();
    return database.queryCount() - before;
  };
  const jobs = async () =>
    (
      await database.pool.query<{ data: WebhookJob }>(
        `SELECT data FROM ${database.tables.jobSchema}.job WHERE name = $1 AND state = 'created'`,
        [webhookQueue],
      )
    ).rows.flatMap(({ data }) => (data.type === 'deliver-events' ? [data] : []));
  return { kit, principal, create, jobs, sent };
};

describe('webhook jobs sent by commands on PostgreSQL', () => {
  it('asks once whether the manager has an endpoint, then sends the job instead of asking again', async () => {
    const { kit, principal, create, jobs } = await setup();
    const noEndpoint = await create();
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    const jobsBefore = (await jobs()).length;
    const first = await create();
    const second = await create();
    // Without an endpoint: the check and no job. The first with one: the check and the job.
    expect(first).toBe(noEndpoint + 1);
    // Remembered: the job alone, as many statements as a command without an endpoint.
    expect(second).toBe(noEndpoint);
    expect((await jobs()).length).toBe(jobsBefore + 2);
  });

  it('a manager remembered after its last endpoint was removed gets a job that delivers nothing', async () => {
    const { kit, principal, create, jobs, sent } = await setup();
    const endpoint = (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    await create();
    (await kit.webhooks.deleteEndpoint(principal, endpoint.id))._unsafeUnwrap();
    const before = new Set((await jobs()).flatMap(({ eventIds }) => eventIds));
    await create();
    const [stale, ...more] = (await jobs()).filter(({ eventIds }) => eventIds.every((id) => !before.has(id)));
    expect(more).toEqual([]);
    if (stale === undefined) throw new Error('no job was sent');
    const report = (await kit.webhooks.runJob(stale))._unsafeUnwrap();
    expect(report).toEqual({ attempted: 0, succeeded: 0, retrying: 0, failed: 0 });
    expect(sent).toEqual([]);
  });
});
