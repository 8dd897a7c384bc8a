import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

/**
 * Every list cursor is decided by core's one codec before the adapter sees it: a crafted one is
 * the same ValidationFailed on PostgreSQL as in memory, never a StorageUnavailable (a 503 and a
 * logged outage) from a value PostgreSQL cannot read.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const tuple = (...elements: unknown[]) => Buffer.from(JSON.stringify(elements)).toString('base64url');
const invalidAt = (parameter: string) => ({
  type: 'ValidationFailed',
  reason: 'The query parameters are invalid',
  parameterErrors: { [parameter]: ['Invalid cursor: pass the nextCursor of a previous page'] },
});

const id = randomUUID();
const at = '2026-11-23T08:00:00.123Z';
/** (createdAt, id) cursors of the client and delivery lists that PostgreSQL cannot read, or reads otherwise. */
const craftedRowCursors = [
  tuple('+275760-09-13T00:00:00.000Z', id),
  tuple('0000-01-01T00:00:00.000Z', id),
  tuple('2026-02-30T08:00:00.000Z', id),
  tuple('Tue Nov 24 2026', id),
  tuple('2026', id),
  tuple('2026-11-23T08:00:00.123+01:00', id),
  tuple(at, 'not-a-uuid'),
  tuple(at, id.toUpperCase()),
  tuple(at, id, 'extra'),
];
/** Event positions PostgreSQL cannot read as two bigints, or that no log hands out. */
const craftedEventCursors = [
  Buffer.from('e1.9999999999999999999').toString('base64url'),
  tuple('1', '9999999999999999999'),
  tuple('9223372036854775808'),
  tuple('1e3'),
  tuple('-1'),
  tuple(1),
];

describe('crafted list cursors on PostgreSQL', () => {
  it('are refused by core before the adapter, which fails on some of them as an outage', async () => {
    const { pool, adapters } = database;
    // What reaching PostgreSQL would do: the adapters (rightly) report a value it cannot read as an outage.
    const managerId = randomUUID();
    expect(
      (
        await adapters.clients.list({
          managerId,
          limit: 1,
          after: { createdAt: '+275760-09-13T00:00:00.000Z', id },
        })
      )._unsafeUnwrapErr().type,
    ).toBe('StorageUnavailable');
    expect(
      (
        await adapters.events.listForManager({ managerId, limit: 1, afterPosition: '1.9999999999999999999' })
      )._unsafeUnwrapErr().type,
    ).toBe('StorageUnavailable');
    await expect(pool.query(`SELECT '0000-01-01T00:00:00.000Z'::timestamptz`)).rejects.toThrow(
      /out of range/,
    );

    const { kit, principal, createClient } = webhookKitOnPostgres(database);
    await createClient();
    const endpoint = (
      await kit.webhooks.createEndpoint(principal, { url: 'https://hooks.example.com/cursors' })
    )._unsafeUnwrap();
    for (const cursor of craftedRowCursors) {
      expect((await kit.clients.list(principal, { cursor }))._unsafeUnwrapErr(), cursor).toEqual(
        invalidAt('cursor'),
      );
      expect(
        (await kit.webhooks.listDeliveries(principal, endpoint.id, { cursor }))._unsafeUnwrapErr(),
        cursor,
      ).toEqual(invalidAt('cursor'));
    }
    for (const after of craftedEventCursors) {
      expect((await kit.events.list(principal, { after }))._unsafeUnwrapErr(), after).toEqual(
        invalidAt('after'),
      );
    }
  });

  it('pages with the cursors the kit hands out: clients and events', async () => {
    const { kit, principal, createClient } = webhookKitOnPostgres(database);
    await createClient();
    await createClient();
    await createClient();

    const clients = (await kit.clients.list(principal, { limit: 2 }))._unsafeUnwrap();
    expect(clients.nextCursor).not.toBeNull();
    const rest = (
      await kit.clients.list(principal, { limit: 2, cursor: clients.nextCursor })
    )._unsafeUnwrap();
    expect(rest.data).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();

    const first = (await kit.events.list(principal, { limit: 2 }))._unsafeUnwrap();
    expect(first.data).toHaveLength(2);
    const next = (await kit.events.list(principal, { limit: 100, after: first.nextCursor }))._unsafeUnwrap();
    expect([...first.data, ...next.data].map((event) => event.id)).toEqual(
      (await kit.events.list(principal, { limit: 100 }))._unsafeUnwrap().data.map((event) => event.id),
    );
    expect(next.data.length).toBeGreaterThan(0);
  });
});
