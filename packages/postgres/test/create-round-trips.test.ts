import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { okAsync, type ResultAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTcpLatencyProxy, type TcpLatencyProxy } from '../../../test-support/tcp-latency-proxy.js';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { newSchemaName } from './postgres-test-database.js';

/**
 * The performance goal of a create on a database across a network: at most 3 round trips, the
 * idempotency claim and the claim on the uploads it names included. Counted on the wire, by a proxy between the pool and PostgreSQL.
 */
const schema = newSchemaName();
let counter: TcpLatencyProxy;
let pool: pg.Pool;
beforeAll(async () => {
  const server = new URL(inject('postgresUrl'));
  counter = await startTcpLatencyProxy({ host: server.hostname, port: Number(server.port || 5432) });
  pool = new pg.Pool({ connectionString: counter.through(inject('postgresUrl')), max: 1 });
  (await migrate(pool, { schema }))._unsafeUnwrap();
});
afterAll(async () => {
  await pool.end();
  await counter.close();
});

/** The kit on the counted pool (`kitOnPostgres`), screening when given a provider. */
const kitOnCountedPool = (screening?: ScreeningProvider) => {
  const {
    kit,
    manager: principal,
    upload: putFile,
  } = kitOnPostgres(createPostgresAdapters({ pool, schema }), screening === undefined ? {} : { screening });
  const owner = `manager:${principal.managerId}`;
  /** The round trips of `create`, run with a claimed key as the HTTP binding runs it. */
  const roundTripsOf = async (
    route: string,
    body: unknown,
    create: (claim: {
      claim: { scope: string; key: string; token: string };
    }) => ResultAsync<unknown, unknown>,
  ): Promise<number> => {
    const before = counter.roundTrips();
    const decision = (
      await kit.idempotency.claim({ scope: `${owner} POST ${route}`, owner, key: randomUUID(), body })
    )._unsafeUnwrap();
    if (decision.type !== 'Claimed') throw new Error(`expected a claim, got ${decision.type}`);
    const created = await create({ claim: decision.ref });
    expect(created.isOk()).toBe(true);
    return counter.roundTrips() - before;
  };
  return { kit, principal, putFile, roundTripsOf };
};

describe('round trips of a create on PostgreSQL, on the wire', () => {
  it('the counter counts each statement awaited in turn as one round trip', async () => {
    await pool.query('SELECT 1');
    const before = counter.roundTrips();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT $1::int AS n', [1]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(counter.roundTrips() - before).toBe(3);
  });

  it('an individual with a document: the key, the uploads claimed, one statement (goal ≤ 3)', async () => {
    const { kit, principal, putFile, roundTripsOf } = kitOnCountedPool();
    // The connection opened and the statements prepared: what a host's warm pool has.
    putFile('warm-up.pdf');
    await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: ['warm-up.pdf'] }));

    putFile('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const roundTrips = await roundTripsOf('/manager/v1/clients/individuals', payload, (context) =>
      kit.clients.createIndividual(principal, payload, context),
    );
    expect(roundTrips).toBeLessThanOrEqual(3);
    expect(roundTrips).toBe(3);
  });

  it('an entity with documents, for a manager with a webhook endpoint: the key, the uploads, one statement', async () => {
    const { kit, principal, putFile, roundTripsOf } = kitOnCountedPool();
    (
      await kit.webhooks.createEndpoint(principal, { url: 'https://portal.example.com/hooks' })
    )._unsafeUnwrap();
    const files = ['incorporation.pdf', 'registry.pdf', 'director-id.pdf'];
    const payloadWith = (prefix: string) => {
      for (const name of files) putFile(`${prefix}${name}`);
      return exampleEntityPayload({
        proofOfIncorporationDocuments: [`${prefix}${files[0]}`],
        registryOfDirectorsAndShareholdersDocuments: [`${prefix}${files[1]}`],
        directorIdDocuments: [`${prefix}${files[2]}`],
      });
    };
    await kit.clients.createEntity(principal, payloadWith('warm-up-'));

    const payload = payloadWith('');
    const roundTrips = await roundTripsOf('/manager/v1/clients/entities', payload, (context) =>
      kit.clients.createEntity(principal, payload, context),
    );
    expect(roundTrips).toBeLessThanOrEqual(3);
    expect(roundTrips).toBe(3);
    // The webhook job went with it, in the same statement.
    const jobs = await pool.query(
      `SELECT count(*)::int AS n FROM ${schema}_jobs.job WHERE name = 'onboarding-kit-webhooks'`,
    );
    expect(jobs.rows[0]?.n).toBe(2);
  });

  it('a screened create: its screening job goes in the same one statement (goal ≤ 3)', async () => {
    const { kit, principal, putFile, roundTripsOf } = kitOnCountedPool({ screen: () => okAsync([]) });
    putFile('warm-up.pdf');
    await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: ['warm-up.pdf'] }));

    putFile('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const roundTrips = await roundTripsOf('/manager/v1/clients/individuals', payload, (context) =>
      kit.clients.createIndividual(principal, payload, context),
    );
    expect(roundTrips).toBe(3);
    const jobs = await pool.query(
      `SELECT data FROM ${schema}_jobs.job WHERE name = 'onboarding-kit-screening' ORDER BY created_on`,
    );
    expect(jobs.rows).toHaveLength(2);
    expect(jobs.rows[1]?.data).toEqual({ type: 'screen-client', clientId: expect.any(String) });
  });
});
