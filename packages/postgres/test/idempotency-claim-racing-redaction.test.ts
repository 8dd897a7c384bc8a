import { randomUUID } from 'node:crypto';
import { type CompliancePrincipal, exampleEntityPayload, principalKey } from '@onboarding-kit/core';
import {
  fingerprintRequestBody,
  type IdempotencyClaimRequest,
  REDACTED_FINGERPRINT,
  type RecordedOutcome,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * A claim of a key that races a redaction of its client, on PostgreSQL (decisions §5, §11). The
 * redaction's transaction holds the record's row lock (rewriteForClient, as core's redaction runs
 * it) and is held open; a claim of the key, with the body it was claimed with and with another,
 * waits on that lock, then answers from the snapshot its statement began with: the answer the key
 * had just before the redaction (the claim took effect then, as any read that began before the
 * commit). A claim after the commit replays the redacted answer whatever its body.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

test('a claim racing the redaction waits for it and answers as before it; after it, the redacted answer', async () => {
  const { idempotency, unitOfWork } = database.adapters;
  const clientId = randomUUID();
  const scope = `manager:${randomUUID()} POST /host/clients/${clientId}/notes`;
  const t0 = new Date();
  const request = (fingerprint: string, ms: number): IdempotencyClaimRequest => ({
    scope,
    key: 'note-1',
    owner: 'manager:race',
    token: randomUUID(),
    maxLiveRecordsPerOwner: null,
    fingerprint,
    now: new Date(t0.getTime() + ms),
    lockTtlMs: 60_000,
    recordTtlMs: 86_400_000,
  });
  const [sent, other] = ['a'.repeat(64), 'b'.repeat(64)];
  const first = request(sent, 0);
  (await idempotency.claim(first))._unsafeUnwrap();
  const answer: RecordedOutcome = { kind: 'response', status: 201, body: { note: 'Ada Lovelace' } };
  (await idempotency.complete(first, answer, t0))._unsafeUnwrap();
  const erased: RecordedOutcome = { kind: 'response', status: 201, body: '[redacted]' };

  let locked: () => void = () => undefined;
  const rowsLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  let commit: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    commit = resolve;
  });
  const redaction = unitOfWork.transaction((stores) =>
    stores.idempotency
      .rewriteForClient(clientId, () => {
        locked();
        return erased;
      })
      .andThen(() => ResultAsync.fromSafePromise(gate)),
  );
  await rowsLocked;

  const racing = [idempotency.claim(request(sent, 1_000)), idempotency.claim(request(other, 1_000))];
  // Both claims wait on the record's lock while the redaction's transaction is open.
  const monitor = new pg.Client({ connectionString: database.connectionString });
  await monitor.connect();
  try {
    const waiting = async () =>
      Number(
        (
          await monitor.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ON CONFLICT%'`,
          )
        ).rows[0]?.n,
      );
    const until = Date.now() + 10_000;
    while ((await waiting()) < 2 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await waiting()).toBe(2);
  } finally {
    await monitor.end();
  }
  commit();
  (await redaction)._unsafeUnwrap();
  const [same, another] = await Promise.all(racing);
  expect(same?._unsafeUnwrap()).toEqual({ type: 'Replay', outcome: answer });
  expect(another?._unsafeUnwrap()).toEqual({ type: 'KeyReused' });

  // After the commit: the redacted answer, whatever the body.
  for (const fingerprint of [sent, other]) {
    expect((await idempotency.claim(request(fingerprint, 2_000)))._unsafeUnwrap()).toEqual({
      type: 'Replay',
      outcome: erased,
    });
  }
});

test('two processes redacting one client at the same moment: one erasure, every record redacted once', async () => {
  // Two kits on two pools of one database: two processes of the host.
  const pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
  try {
    const one = kitOnPostgres(database.adapters);
    const two = kitOnPostgres(createPostgresAdapters({ pool, schema: database.schema }));
    const { kit, manager } = one;
    const officer: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-race' };
    const body = exampleEntityPayload();
    const scope = `${principalKey(manager)} POST /clients/entities`;
    const claim = (
      await kit.idempotency.claim({ scope, key: 'create-1', owner: principalKey(manager), body })
    )._unsafeUnwrap();
    if (claim.type !== 'Claimed') throw new Error('expected a claim');
    const created = (await kit.clients.createEntity(manager, body, { claim: claim.ref }))._unsafeUnwrap();
    (await kit.clients.delete(manager, created.id))._unsafeUnwrap();

    const [first, second] = await Promise.all([
      kit.redaction.redact(officer, created.id),
      two.kit.redaction.redact(officer, created.id),
    ]);
    expect(second._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
    const audit = (await kit.audit.list(officer, created.id, {}))._unsafeUnwrap().data;
    expect(audit.filter((entry) => entry.action === 'redact')).toHaveLength(1);
    const events = (await kit.events.list(manager, { clientId: created.id, limit: '100' }))._unsafeUnwrap()
      .data;
    expect(events.filter((event) => event.type === 'client.redacted')).toHaveLength(1);
    const { rows } = await database.pool.query<{ fingerprint: string; outcome: string }>(
      `SELECT fingerprint, outcome::text AS outcome FROM ${database.tables.idempotency}
       WHERE scope = $1 AND idempotency_key = 'create-1'`,
      [scope],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.fingerprint).toBe(REDACTED_FINGERPRINT);
    expect(rows[0]?.fingerprint).not.toBe(fingerprintRequestBody(body)._unsafeUnwrap());
    expect(rows[0]?.outcome).not.toContain(body.company.name);
  } finally {
    await pool.end();
  }
});
