import { randomUUID } from 'node:crypto';
import { creationEntryFor, documentRecordFixture, storedClientFixture } from '@onboarding-kit/contract-tests';
import type { ClientEvent } from '@onboarding-kit/core';
import type { IdempotencyClaimRef, LoggedEvent, StoredClient } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpLatencyProxy, type TcpLatencyProxy } from '../../../test-support/tcp-latency-proxy.js';
import { createPostgresAdapters, type PostgresAdapters } from '../src/index.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

/**
 * The PostgreSQL unit of work: each store call is its own statement inside one BEGIN … COMMIT, and
 * whatever ends the work early (a lost claim, a refused row, a failure the work recovered from)
 * keeps nothing.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

/** A `client.created` event of `client`, as the log keeps it. */
const clientEventFor = (client: StoredClient): LoggedEvent => ({
  managerId: client.managerId,
  clientId: client.id,
  event: {
    id: randomUUID(),
    type: 'client.created',
    createdAt: client.createdAt,
    data: { clientId: client.id },
  } as unknown as ClientEvent,
});

const eventCount = async (eventId: string): Promise<number> =>
  (
    await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${database.tables.events} WHERE event_id = $1`,
      [eventId],
    )
  ).rows[0]?.n ?? 0;

/** A claimed idempotency key of its own. */
const claimKey = async (): Promise<IdempotencyClaimRef> => {
  const ref = { scope: `scope-${randomUUID()}`, key: 'k', token: randomUUID() };
  const claim = await database.adapters.idempotency.claim({
    ...ref,
    owner: `manager:${randomUUID()}`,
    maxLiveRecordsPerOwner: null,
    fingerprint: 'f',
    now: new Date(),
    lockTtlMs: 60_000,
    recordTtlMs: 3_600_000,
  });
  expect(claim._unsafeUnwrap()).toEqual({ type: 'Claimed' });
  return ref;
};

/** The first word of each statement sent since `before` (a count from `database.queryCount()`). */
const statementsSince = (before: number): string[] =>
  database
    .recentStatements()
    .slice(-(database.queryCount() - before))
    .map(({ text }) => text.trim().split(/\s+/)[0] ?? '');

describe('the PostgreSQL unit of work', () => {
  it('a create is one statement per store call between BEGIN and COMMIT (a locked read two: the lock, then the read), and a read inside sees it', async () => {
    const ref = await claimKey();
    const client = storedClientFixture({ managerId: randomUUID() });
    const before = database.queryCount();
    const seen = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(client, creationEntryFor(client))
        .andThen(() => stores.documents.insertMany([documentRecordFixture(client, 'passport.pdf')]))
        .andThen(() => stores.clients.findForUpdate(client.id))
        .andThen((found) =>
          stores.idempotency
            .complete(ref, { kind: 'command', ok: true, value: { id: client.id } }, new Date())
            .map(() => found),
        ),
    );
    expect(seen._unsafeUnwrap()).toEqual(client);
    expect(statementsSince(before)).toEqual([
      'BEGIN',
      'WITH',
      'INSERT',
      'SELECT',
      'SELECT',
      'UPDATE',
      'COMMIT',
    ]);
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toEqual(client);
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toMatchObject({
      outcome: { kind: 'command', ok: true, value: { id: client.id } },
    });
  });

  it('a completion whose claim was lost ends the transaction IdempotencyLockLost, and nothing is kept', async () => {
    const ref = await claimKey();
    // Another holder's release (as a takeover would): this token no longer holds the key.
    (await database.adapters.idempotency.release(ref))._unsafeUnwrap();
    const client = storedClientFixture({ managerId: randomUUID() });
    const document = documentRecordFixture(client, 'passport.pdf');
    const event = clientEventFor(client);
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(client, creationEntryFor(client))
        .andThen(() => stores.documents.insertMany([document]))
        .andThen(() => stores.events.append([event]))
        .andThen(() =>
          stores.idempotency.complete(
            ref,
            { kind: 'command', ok: true, value: { id: client.id } },
            new Date(),
          ),
        ),
    );
    expect(outcome._unsafeUnwrapErr()).toEqual({
      type: 'IdempotencyLockLost',
      scope: ref.scope,
      key: ref.key,
    });
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toBeNull();
    expect(await inspect.readDocumentRecord(document.key)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toBeNull();
  });

  it('one row refused by a constraint is StorageUnavailable at that store call, and nothing of the create is kept', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    const taken = documentRecordFixture(existing, 'passport.pdf');
    (
      await database.adapters.unitOfWork.transaction((stores) =>
        stores.clients
          .insert(existing, creationEntryFor(existing))
          .andThen(() => stores.documents.insertMany([taken])),
      )
    )._unsafeUnwrap();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const event = clientEventFor(fresh);
    let continued = false;
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.events
        .append([event])
        .andThen(() => stores.clients.insert(fresh, creationEntryFor(fresh)))
        // A document key already indexed: its primary key refuses that one row.
        .andThen(() =>
          stores.documents.insertMany([
            documentRecordFixture(fresh, 'other.pdf'),
            { ...taken, clientId: fresh.id },
          ]),
        )
        .andThen(() => {
          continued = true;
          return okAsync(undefined);
        }),
    );
    expect(continued).toBe(false);
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(fresh.id)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
    expect(await inspect.readDocumentRecord(taken.key)).toEqual(taken);
    expect(await inspect.readClient(existing.id)).toEqual(existing);
  });

  it('work that recovers from a failed statement and resolves Ok is not committed: the server rolled the transaction back', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    (
      await database.adapters.unitOfWork.transaction((stores) =>
        stores.clients.insert(existing, creationEntryFor(existing)),
      )
    )._unsafeUnwrap();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(fresh, creationEntryFor(fresh))
        // The same client again: refused by its primary key, which aborts the transaction…
        .andThen(() => stores.clients.insert(existing, creationEntryFor(existing)))
        // …and the work carries on as if nothing happened.
        .orElse(() => okAsync(undefined)),
    );
    // PostgreSQL answers the COMMIT of an aborted transaction with ROLLBACK, not an error.
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    expect(await rawSqlInspector(database.pool, database.tables).readClient(fresh.id)).toBeNull();
  });

  it('a store call after the unit of work ended is refused rather than written outside it', async () => {
    let late: (() => Promise<unknown>) | undefined;
    const lateClient = storedClientFixture({ managerId: randomUUID() });
    (
      await database.adapters.unitOfWork.transaction((stores) => {
        late = async () => stores.clients.insert(lateClient, creationEntryFor(lateClient));
        return stores.clients.findById(randomUUID());
      })
    )._unsafeUnwrap();
    const result = (await late?.()) as { isErr(): boolean };
    expect(result.isErr()).toBe(true);
    expect(await rawSqlInspector(database.pool, database.tables).readClient(lateClient.id)).toBeNull();
  });
});

/**
 * On a pool whose clients pipeline (node-postgres's `pipeline: true`), what the work asks for at once
 * goes in one round trip behind BEGIN; the same rows are kept, and nothing when one fails. Round
 * trips are counted on the wire by a proxy that adds no delay.
 */
describe('the PostgreSQL unit of work on clients that pipeline', () => {
  let proxy: TcpLatencyProxy;
  let pool: pg.Pool;
  let adapters: PostgresAdapters;
  beforeAll(async () => {
    const url = new URL(database.connectionString);
    proxy = await startTcpLatencyProxy({ host: url.hostname, port: Number(url.port) });
    pool = new pg.Pool({
      connectionString: proxy.through(database.connectionString),
      max: 2,
      pipeline: true,
    });
    adapters = createPostgresAdapters({ pool, schema: database.schema });
  });
  afterAll(async () => {
    await pool?.end();
    await proxy?.close();
  });

  /** The round trips `work` takes, on a connection already open. */
  const roundTripsOf = async <T>(work: () => PromiseLike<T>): Promise<{ outcome: T; roundTrips: number }> => {
    await pool.query('SELECT 1');
    const before = proxy.roundTrips();
    const outcome = await work();
    return { outcome, roundTrips: proxy.roundTrips() - before };
  };

  it('writes asked for at once go with BEGIN in one round trip; the completion and COMMIT take one each, and every row is kept', async () => {
    const ref = await claimKey();
    const client = storedClientFixture({ managerId: randomUUID() });
    const document = documentRecordFixture(client, 'passport.pdf');
    const event = clientEventFor(client);
    const { outcome, roundTrips } = await roundTripsOf(() =>
      adapters.unitOfWork.transaction((stores) =>
        ResultAsync.combine([
          stores.clients.insert(client, creationEntryFor(client)),
          stores.documents.insertMany([document]),
          stores.events.append([event]),
        ]).andThen(() =>
          stores.idempotency.complete(
            ref,
            { kind: 'command', ok: true, value: { id: client.id } },
            new Date(),
          ),
        ),
      ),
    );
    outcome._unsafeUnwrap();
    expect(roundTrips).toBe(3);
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toEqual(client);
    expect(await inspect.readDocumentRecord(document.key)).toEqual(document);
    expect(await eventCount(event.event.id)).toBe(1);
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toMatchObject({
      outcome: { kind: 'command', ok: true, value: { id: client.id } },
    });
  });

  it('a row refused in the middle of what was sent at once is the failure reported, and nothing of it is kept', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    const taken = documentRecordFixture(existing, 'passport.pdf');
    (
      await adapters.unitOfWork.transaction((stores) =>
        stores.clients
          .insert(existing, creationEntryFor(existing))
          .andThen(() => stores.documents.insertMany([taken])),
      )
    )._unsafeUnwrap();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const event = clientEventFor(fresh);
    const outcome = await adapters.unitOfWork.transaction((stores) => {
      const writes = [
        stores.clients.insert(fresh, creationEntryFor(fresh)),
        // A document key already indexed: its primary key refuses it, and the events behind it fail with it.
        stores.documents.insertMany([{ ...taken, clientId: fresh.id }]),
        stores.events.append([event]),
      ];
      return ResultAsync.combine(writes);
    });
    expect(outcome._unsafeUnwrapErr()).toMatchObject({
      type: 'StorageUnavailable',
      store: 'postgres',
      cause: expect.objectContaining({ code: '23505' }),
    });
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(fresh.id)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
    expect(await inspect.readDocumentRecord(taken.key)).toEqual(taken);
    // The connection is sound afterwards: the next transaction on it commits.
    const next = storedClientFixture({ managerId: randomUUID() });
    (
      await adapters.unitOfWork.transaction((stores) => stores.clients.insert(next, creationEntryFor(next)))
    )._unsafeUnwrap();
    expect(await inspect.readClient(next.id)).toEqual(next);
  });

  it('a completion whose claim was lost ends the transaction IdempotencyLockLost, and nothing is kept', async () => {
    const ref = await claimKey();
    (await database.adapters.idempotency.release(ref))._unsafeUnwrap();
    const client = storedClientFixture({ managerId: randomUUID() });
    const event = clientEventFor(client);
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      ResultAsync.combine([
        stores.clients.insert(client, creationEntryFor(client)),
        stores.events.append([event]),
      ]).andThen(() =>
        stores.idempotency.complete(ref, { kind: 'command', ok: true, value: { id: client.id } }, new Date()),
      ),
    );
    expect(outcome._unsafeUnwrapErr()).toEqual({
      type: 'IdempotencyLockLost',
      scope: ref.scope,
      key: ref.key,
    });
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
  });

  it('work that recovers from a failed statement and resolves Ok is not committed', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    (
      await adapters.unitOfWork.transaction((stores) =>
        stores.clients.insert(existing, creationEntryFor(existing)),
      )
    )._unsafeUnwrap();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const outcome = await adapters.unitOfWork.transaction((stores) =>
      ResultAsync.combine([
        stores.clients.insert(fresh, creationEntryFor(fresh)),
        stores.clients.insert(existing, creationEntryFor(existing)),
      ]).orElse(() => okAsync([])),
    );
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    expect(await rawSqlInspector(database.pool, database.tables).readClient(fresh.id)).toBeNull();
  });
});
