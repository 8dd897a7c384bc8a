import { randomUUID } from 'node:crypto';
import { creationEntryFor, documentRecordFixture, storedClientFixture } from '@onboarding-kit/contract-tests';
import type { ClientEvent } from '@onboarding-kit/core';
import type { IdempotencyClaimRef, LoggedEvent, StoredClient } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

/**
 * A create on PostgreSQL is one statement committed on its own (src/client-creation.ts): what that
 * must not change (all or nothing, reads see the writes, a lost claim keeps nothing) and what it
 * does (a failure is seen at the commit).
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

describe('the create statement of the PostgreSQL unit of work', () => {
  it('a completion whose claim was lost refuses the whole statement: the outcome is IdempotencyLockLost, nothing is kept', async () => {
    const ref = await claimKey();
    // Another holder's release (as a takeover would): this token no longer holds the key.
    (await database.adapters.idempotency.release(ref))._unsafeUnwrap();
    const client = storedClientFixture({ managerId: randomUUID() });
    const document = documentRecordFixture(client, 'passport.pdf');
    const event = clientEventFor(client);
    const before = database.queryCount();
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
    // One statement, refused by the server: no BEGIN, no ROLLBACK.
    expect(database.queryCount() - before).toBe(1);
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toBeNull();
    expect(await inspect.readDocumentRecord(document.key)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
    // The record is the new holder's, untouched.
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toBeNull();
  });

  it('the same completion on a held lock commits with the writes in one statement', async () => {
    const ref = await claimKey();
    const client = storedClientFixture({ managerId: randomUUID() });
    const before = database.queryCount();
    (
      await database.adapters.unitOfWork.transaction((stores) =>
        stores.clients
          .insert(client, creationEntryFor(client))
          .andThen(() =>
            stores.idempotency.complete(
              ref,
              { kind: 'command', ok: true, value: { id: client.id } },
              new Date(),
            ),
          ),
      )
    )._unsafeUnwrap();
    expect(database.queryCount() - before).toBe(1);
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(client.id)).toEqual(client);
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toMatchObject({
      outcome: { kind: 'command', ok: true, value: { id: client.id } },
    });
  });

  it('a read inside the transaction sees the create: it is sent first, in the transaction the read opens', async () => {
    const client = storedClientFixture({ managerId: randomUUID() });
    const seen = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(client, creationEntryFor(client))
        .andThen(() => stores.clients.findForUpdate(client.id)),
    );
    expect(seen._unsafeUnwrap()).toEqual(client);
    expect(
      database
        .recentStatements()
        .slice(-4)
        .map(({ text }) => text.trim().split(/\s+/)[0]),
    ).toEqual(['BEGIN', 'WITH', 'SELECT', 'COMMIT']);
    expect(await rawSqlInspector(database.pool, database.tables).readClient(client.id)).toEqual(client);
  });

  it('one row refused by a constraint keeps nothing of the create, and is StorageUnavailable at the commit', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    const taken = documentRecordFixture(existing, 'passport.pdf');
    (
      await database.adapters.unitOfWork.transaction((stores) =>
        stores.clients
          .insert(existing, creationEntryFor(existing))
          .andThen(() => stores.documents.insertMany([taken])),
      )
    )._unsafeUnwrap();
    const ref = await claimKey();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const event = clientEventFor(fresh);
    const before = database.queryCount();
    let documentsAnswered = false;
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(fresh, creationEntryFor(fresh))
        // A document key already indexed: its primary key refuses that one row, at the commit.
        .andThen(() =>
          stores.documents.insertMany([
            documentRecordFixture(fresh, 'other.pdf'),
            { ...taken, clientId: fresh.id },
          ]),
        )
        .andThen(() => {
          documentsAnswered = true;
          return stores.events.append([event]);
        })
        .andThen(() =>
          stores.idempotency.complete(
            ref,
            { kind: 'command', ok: true, value: { id: fresh.id } },
            new Date(),
          ),
        ),
    );
    expect(documentsAnswered).toBe(true);
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    expect(database.queryCount() - before).toBe(1);
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(fresh.id)).toBeNull();
    expect(await eventCount(event.event.id)).toBe(0);
    expect(await inspect.readDocumentRecord(taken.key)).toEqual(taken);
    // The completion was refused with the rest: the claim still holds the key, in progress.
    expect(await inspect.readIdempotencyRecord(ref.scope, ref.key)).toEqual({
      fingerprint: 'f',
      outcome: null,
    });
    expect(await inspect.readClient(existing.id)).toEqual(existing);
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
