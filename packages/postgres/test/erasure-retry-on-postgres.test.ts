import {
  type Client,
  type CompliancePrincipal,
  type DomainError,
  exampleEntityPayload,
  type IdempotentCommandContext,
  type ManagerPrincipal,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import type { Result } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const erasingOfficer: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

/** Runs `command` under an Idempotency-Key as the binding does: claim, then replay or run. */
const keyed = async (
  kit: OnboardingKit,
  owner: string,
  scope: string,
  key: string,
  body: unknown,
  command: (context: IdempotentCommandContext) => PromiseLike<Result<Client, DomainError>>,
) => {
  const claim = (await kit.idempotency.claim({ scope, key, owner, body }))._unsafeUnwrap();
  if (claim.type === 'Replay') return { replayed: claim.outcome } as const;
  return { ran: (await command({ claim: claim.ref }))._unsafeUnwrap() } as const;
};

/**
 * Create with a key, delete with a key, redact; then the same create (key and body) again, and the
 * same delete: each replays its answer, redacted, and nothing runs again.
 */
const retryAfterErasure = async (kit: OnboardingKit, manager: ManagerPrincipal) => {
  const owner = principalKey(manager);
  const body = exampleEntityPayload();
  const create = () =>
    keyed(kit, owner, `${owner}|POST|/clients/entities`, 'create-1', body, (context) =>
      kit.clients.createEntity(manager, body, context),
    );
  const created = (await create()).ran;
  if (created === undefined) throw new Error('the create ran');
  const remove = () =>
    keyed(kit, owner, `${owner}|DELETE|/clients/${created.id}`, 'delete-1', undefined, (context) =>
      kit.clients.delete(manager, created.id, context),
    );
  expect((await remove()).ran?.status).toBe('DELETED');
  const redacted = (await kit.redaction.redact(erasingOfficer, created.id))._unsafeUnwrap();

  const createAgain = await create();
  expect(createAgain.ran).toBeUndefined();
  expect(createAgain.replayed).toEqual({
    kind: 'command',
    ok: true,
    value: {
      ...redacted,
      status: 'ONBOARDING_UNDER_REVIEW',
      deletedAt: null,
      updatedAt: created.updatedAt,
      // What was asked of the client then (kit-made messages, no personal data).
      requirements: created.requirements,
    },
  });
  const removeAgain = await remove();
  expect(removeAgain.ran).toBeUndefined();
  expect(removeAgain.replayed).toMatchObject({
    kind: 'command',
    ok: true,
    value: { id: created.id, status: 'DELETED', company: null, redactedAt: redacted.redactedAt },
  });
  // One client, erased: no second one holding the erased data.
  const clients = (await kit.clients.list(manager, {}))._unsafeUnwrap().data;
  expect(clients.map((client) => [client.id, client.status, client.company])).toEqual([
    [created.id, 'DELETED', null],
  ]);
  expect(JSON.stringify([createAgain, removeAgain])).not.toContain(body.company.name);
};

describe('erasure holds against retries on PostgreSQL', () => {
  it("a retry of an erased client's create or delete replays its redacted answer, and never runs again", async () => {
    const { kit, manager } = kitOnPostgres(database.adapters);
    await retryAfterErasure(kit, manager);
    // The stored answers hold nothing of the client but its ids and dates.
    const { rows } = await database.pool.query(
      `SELECT outcome::text AS outcome FROM ${database.tables.idempotency} WHERE owner = $1`,
      [principalKey(manager)],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.outcome).not.toContain(exampleEntityPayload().company.name);
  });
});
