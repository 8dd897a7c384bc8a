import { principalKey } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

/**
 * A webhook endpoint command's write commits with its Idempotency-Key record, in one transaction:
 * when the record cannot be written (here: the claim was taken over, so its completion is refused
 * at the commit), the write is not kept either, and a retry cannot make a second endpoint.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

describe('webhook endpoint commands on PostgreSQL', () => {
  it('a create, a rotation and a delete whose claim was lost keep nothing', async () => {
    const { kit, principal } = webhookKitOnPostgres(database);
    const owner = principalKey(principal);
    /** A claim of `key`, then taken over (released by another holder) before the command runs. */
    const lostClaim = async (key: string, body: unknown) => {
      const claimed = (
        await kit.idempotency.claim({ scope: `${owner} ${key}`, key, owner, body })
      )._unsafeUnwrap();
      if (claimed.type !== 'Claimed') throw new Error('expected a claim');
      (await database.adapters.idempotency.release(claimed.ref))._unsafeUnwrap();
      return { claim: claimed.ref };
    };
    const endpointBody = { url: 'https://hooks.example.com/kit' };

    const created = await kit.webhooks.createEndpoint(
      principal,
      endpointBody,
      await lostClaim('create', endpointBody),
    );
    expect(created._unsafeUnwrapErr().type).toBe('IdempotencyRequestInProgress');
    expect((await kit.webhooks.listEndpoints(principal))._unsafeUnwrap().data).toEqual([]);

    const endpoint = (await kit.webhooks.createEndpoint(principal, endpointBody))._unsafeUnwrap();
    const before = (
      await database.adapters.webhookEndpoints.find(principal.managerId, endpoint.id)
    )._unsafeUnwrap();
    const rotated = await kit.webhooks.rotateSecret(
      principal,
      endpoint.id,
      {},
      await lostClaim('rotate', {}),
    );
    expect(rotated._unsafeUnwrapErr().type).toBe('IdempotencyRequestInProgress');
    expect(
      (await database.adapters.webhookEndpoints.find(principal.managerId, endpoint.id))._unsafeUnwrap()
        ?.secrets,
    ).toEqual(before?.secrets);

    const removed = await kit.webhooks.deleteEndpoint(
      principal,
      endpoint.id,
      await lostClaim('delete', undefined),
    );
    expect(removed._unsafeUnwrapErr().type).toBe('IdempotencyRequestInProgress');
    expect((await kit.webhooks.getEndpoint(principal, endpoint.id))._unsafeUnwrap().id).toBe(endpoint.id);
  });

  it('creates under one key run once, within the limit, when many arrive together', async () => {
    const { kit, principal } = webhookKitOnPostgres(database);
    const owner = principalKey(principal);
    const body = { url: 'https://hooks.example.com/burst' };
    const create = async () => {
      const claimed = await kit.idempotency.claim({ scope: `${owner} create`, key: 'burst', owner, body });
      if (claimed.isErr()) return claimed.error.type;
      if (claimed.value.type === 'Replay') return 'Replay';
      return (await kit.webhooks.createEndpoint(principal, body, { claim: claimed.value.ref })).isOk()
        ? 'Created'
        : 'Failed';
    };
    const outcomes = await Promise.all(Array.from({ length: 12 }, create));
    expect(outcomes.filter((outcome) => outcome === 'Created')).toHaveLength(1);
    expect((await kit.webhooks.listEndpoints(principal))._unsafeUnwrap().data).toHaveLength(1);
  });
});
