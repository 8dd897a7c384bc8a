import { randomUUID } from 'node:crypto';
import { creationEntryFor, documentRecordFixture, storedClientFixture } from '@onboarding-kit/contract-tests';
import type { IdempotencyClaimRef } from '@onboarding-kit/core';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

/**
 * The PostgreSQL unit of work holds back the writes that need no answer and sends them as one
 * statement (src/write-batch.ts): what that must not change (all or nothing, reads see the writes,
 * a lost claim keeps nothing) and what it does (when a failure is seen).
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

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

describe('batched writes of the PostgreSQL unit of work', () => {
  it('a completion whose claim was lost refuses the whole statement: the outcome is IdempotencyLockLost, nothing is kept', async () => {
    const ref = await claimKey();
    // Another holder's release (as a takeover would): this token no longer holds the key.
    (await database.adapters.idempotency.release(ref))._unsafeUnwrap();
    const client = storedClientFixture({ managerId: randomUUID() });
    const document = documentRecordFixture(client, 'passport.pdf');
    const before = database.queryCount();
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.documents
        .insertMany([document])
        .andThen(() => stores.clients.insert(client, creationEntryFor(client)))
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

  it('a read inside the transaction sees the held-back writes: they are sent first, in the transaction it opens', async () => {
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

  it('a write refused by a constraint keeps none of the batch, and is StorageUnavailable at the commit', async () => {
    const existing = storedClientFixture({ managerId: randomUUID() });
    (
      await database.adapters.unitOfWork.transaction((stores) =>
        stores.clients.insert(existing, creationEntryFor(existing)),
      )
    )._unsafeUnwrap();
    const fresh = storedClientFixture({ managerId: randomUUID() });
    const document = documentRecordFixture(fresh, 'passport.pdf');
    let insertAnswered = false;
    const outcome = await database.adapters.unitOfWork.transaction((stores) =>
      stores.clients
        .insert(fresh, creationEntryFor(fresh))
        .andThen(() => stores.documents.insertMany([document]))
        // The same id again: the primary key refuses it, when the batch is sent.
        .andThen(() => stores.clients.insert(existing, creationEntryFor(existing)))
        .andThen(() => {
          insertAnswered = true;
          return okAsync(undefined);
        }),
    );
    expect(insertAnswered).toBe(true);
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await inspect.readClient(fresh.id)).toBeNull();
    expect(await inspect.readDocumentRecord(document.key)).toBeNull();
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
