import { randomUUID } from 'node:crypto';
import type { ManagerPrincipal } from '@onboarding-kit/core';
import { createControllableClock } from '@onboarding-kit/core';
import { hashApiKey } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

/** A kit on the shared PostgreSQL store, as one process of a host runs it, with its own clock. */
const kitProcess = () => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const { kit } = kitOnPostgres(database.adapters, { clock, options: { apiKeyCacheTtlMs: 10_000 } });
  return { kit, clock };
};

describe('API key revocation on PostgreSQL, with the per-process key cache', () => {
  it('deletes the row; the revoking process refuses the key at once, another one once its TTL has passed', async () => {
    const key = `sk_${randomUUID()}`;
    const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
    const revoking = kitProcess();
    const other = kitProcess();
    (await revoking.kit.apiKeys.register(key, manager))._unsafeUnwrap();
    expect((await revoking.kit.apiKeys.authenticate(key))._unsafeUnwrap()).toEqual(manager);
    expect((await other.kit.apiKeys.authenticate(key))._unsafeUnwrap()).toEqual(manager);

    (await revoking.kit.apiKeys.revoke(key))._unsafeUnwrap();
    expect(await rawSqlInspector(database.pool, database.tables).dumpApiKeys()).not.toContain(
      hashApiKey(key),
    );
    expect((await revoking.kit.apiKeys.authenticate(key))._unsafeUnwrapErr().type).toBe('Unauthorized');

    // The other process read the key before it was revoked: it keeps it for the TTL, no longer.
    expect((await other.kit.apiKeys.authenticate(key)).isOk()).toBe(true);
    other.clock.advance(10_000);
    expect((await other.kit.apiKeys.authenticate(key))._unsafeUnwrapErr().type).toBe('Unauthorized');
  });

  it('revoking an unknown key is not an error', async () => {
    const { kit } = kitProcess();
    (await kit.apiKeys.revoke(`sk_${randomUUID()}`))._unsafeUnwrap();
  });
});
