import { type Client, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

describe('createIndividual through the kit on the postgres adapters', () => {
  it('creates the client, its rows, its document and the idempotency record in one transaction', async () => {
    const { kit, manager: principal, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf', new TextEncoder().encode('%PDF-1.7'));
    const payload = exampleIndividualPayload();
    const owner = `manager:${principal.managerId}`;
    const scope = `${owner} POST /manager/v1/clients/individuals`;
    const claimInput = { scope, owner, key: 'create-1', body: payload };

    const before = database.queryCount();
    const decision = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
    if (decision.type !== 'Claimed') throw new Error(`expected a claim, got ${decision.type}`);
    const created = await kit.clients.createIndividual(principal, payload, { claim: decision.ref });
    const sent = database.recentStatements().slice(-(database.queryCount() - before));
    const client: Client = created._unsafeUnwrap();

    // The key's claim and the claim on the upload (one upload, one command) commit on their own;
    // every write of the create (the client with its child rows and history, the documents, its
    // events, its audit entry, the completion) is a statement of its store inside one transaction.
    const words = sent.map(({ text }) => text.trim().split(/\s+/)[0]);
    expect(words.indexOf('BEGIN')).toBe(2);
    expect(words.at(-1)).toBe('COMMIT');
    expect(words.filter((word) => word === 'BEGIN' || word === 'COMMIT')).toEqual(['BEGIN', 'COMMIT']);

    const inspect = rawSqlInspector(database.pool, database.tables);
    const stored = await inspect.readClient(client.id);
    // `requirements` is computed for the answer (what holds the approval back), never stored.
    const { requirements: _computed, ...answered } = client;
    expect(stored).toEqual({ ...answered, managerId: principal.managerId });
    expect(stored?.bankAccounts).toHaveLength(payload.bankAccounts.length);
    expect(stored?.blockchainWallets).toHaveLength(payload.blockchainWallets.length);
    expect(await inspect.readStatusHistory(client.id)).toEqual([
      expect.objectContaining({ from: null, to: 'ONBOARDING_UNDER_REVIEW' }),
    ]);
    const [documentKey] = client.individualProfile?.idDocuments ?? [];
    expect(documentKey).toMatch(/_passport\.pdf$/);
    expect(await inspect.readDocumentRecord(documentKey ?? '')).toMatchObject({
      clientId: client.id,
      managerId: principal.managerId,
      filename: 'passport.pdf',
    });
    const record = await inspect.readIdempotencyRecord(scope, 'create-1');
    expect(record?.outcome).toEqual({ kind: 'command', ok: true, value: JSON.parse(JSON.stringify(client)) });

    // The same request again is replayed from the record: nothing runs, no second client.
    const replay = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
    expect(replay).toEqual({ type: 'Replay', outcome: record?.outcome });
    const count = await database.pool.query(
      `SELECT count(*)::int AS n FROM ${database.tables.clients} WHERE manager_id = $1`,
      [principal.managerId],
    );
    expect(count.rows[0]?.n).toBe(1);
  });

  it('lists, reads and resubmits through the kit, with the racing resubmit answered InvalidStatus', async () => {
    const { kit, manager: principal, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf', new TextEncoder().encode('%PDF-1.7'));
    const client = (
      await kit.clients.createIndividual(principal, exampleIndividualPayload())
    )._unsafeUnwrap();
    const compliance = { kind: 'compliance', complianceId: 'compliance-1' } as const;
    (await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Blurred' }))._unsafeUnwrap();

    upload('passport.pdf', new TextEncoder().encode('%PDF-1.7 again'));
    const outcomes = await Promise.all([
      kit.clients.resubmitIndividual(principal, client.id, exampleIndividualPayload()),
      kit.clients.resubmitIndividual(principal, client.id, exampleIndividualPayload()),
    ]);
    expect(outcomes.filter((outcome) => outcome.isOk())).toHaveLength(1);
    // The loser either saw the new status under the row lock, or found its file already promoted.
    for (const outcome of outcomes.filter((o) => o.isErr())) {
      expect(['InvalidStatus', 'ValidationFailed']).toContain(outcome._unsafeUnwrapErr().type);
    }
    const listed = (await kit.clients.list(principal, {}))._unsafeUnwrap();
    expect(listed.data.map((c) => [c.id, c.status])).toEqual([[client.id, 'ONBOARDING_UNDER_REVIEW']]);
    const history = (await kit.clients.statusHistory(principal, client.id))._unsafeUnwrap();
    expect(history.map((entry) => entry.to)).toEqual([
      'ONBOARDING_UNDER_REVIEW',
      'RESUBMISSION_REQUIRED',
      'ONBOARDING_UNDER_REVIEW',
    ]);
  });
});
