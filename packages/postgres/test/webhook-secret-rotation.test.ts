import { principalKey } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

describe('webhook secret rotation on PostgreSQL', () => {
  it('parallel rotations under distinct keys all succeed, one after the other, and keep at most three secrets', async () => {
    const { kit, principal } = webhookKitOnPostgres(database);
    const owner = principalKey(principal);
    const endpoint = (
      await kit.webhooks.createEndpoint(principal, { url: 'https://hooks.example.com/rotate' })
    )._unsafeUnwrap();
    const rotate = async (i: number) => {
      const body = { overlapSeconds: 86_400 };
      const claimed = (
        await kit.idempotency.claim({ scope: `${owner} rotate ${i}`, key: `rotate-${i}`, owner, body })
      )._unsafeUnwrap();
      if (claimed.type !== 'Claimed') throw new Error('expected a claim');
      return kit.webhooks.rotateSecret(principal, endpoint.id, body, { claim: claimed.ref });
    };
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => rotate(i)));
    expect(outcomes.map((outcome) => (outcome.isOk() ? 'ok' : outcome.error.type))).toEqual(
      Array(40).fill('ok'),
    );
    const stored = (
      await database.adapters.webhookEndpoints.find(principal.managerId, endpoint.id)
    )._unsafeUnwrap();
    const secrets = outcomes.map((outcome) => outcome._unsafeUnwrap().secret);
    // The current secret is one rotation's answer, and the two before it are two others'.
    expect(stored?.secrets).toHaveLength(3);
    for (const { secret } of stored?.secrets ?? []) expect(secrets).toContain(secret);
  });
});
