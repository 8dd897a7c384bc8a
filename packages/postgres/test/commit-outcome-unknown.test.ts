import { randomUUID } from 'node:crypto';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kitTables } from '../src/kit-tables.js';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { newSchemaName, workerDatabaseUrl } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

/**
 * The server commits, then the connection drops before its reply arrives. The kit
 * cannot know the outcome; it must not act as if the commit had failed (removing the documents a
 * saved client points at), and a retry with the same key must replay the saved client.
 */

/**
 * A pool whose next COMMIT is really sent and kept by the server, and whose reply is then lost.
 */
const poolLosingCommitReplies = (connectionString: string) => {
  let loseNextCommitReply = false;
  class LosingClient extends pg.Client {}
  const send = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => Promise<unknown>;
  (LosingClient.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const [statement] = args;
    if (statement === 'COMMIT' && loseNextCommitReply) {
      loseNextCommitReply = false;
      return send.apply(this, args).then(() => {
        // The reply arrived, but we act as the network would have: the socket is gone.
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        throw new Error('Connection terminated unexpectedly');
      });
    }
    return send.apply(this, args);
  };
  const pool = new pg.Pool({ connectionString, max: 4, Client: LosingClient });
  return { pool, loseNextCommitReply: () => (loseNextCommitReply = true) };
};

const schema = newSchemaName();
const { pool, loseNextCommitReply } = poolLosingCommitReplies(await workerDatabaseUrl());
beforeAll(async () => {
  (await migrate(pool, { schema }))._unsafeUnwrap();
});
afterAll(() => pool.end());

it('a lost COMMIT reply of a create keeps the documents of the saved client, and the retry replays it', async () => {
  const { kit, memory, manager: principal, upload } = kitOnPostgres(createPostgresAdapters({ pool, schema }));
  const owner = `manager:${principal.managerId}`;
  upload('passport.pdf', new TextEncoder().encode('%PDF-1.7 scan'));
  const payload = exampleIndividualPayload();
  const scope = `${owner} POST /manager/v1/clients/individuals`;
  const claimInput = { scope, owner, key: 'create-1', body: payload };

  const decision = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
  if (decision.type !== 'Claimed') throw new Error(`expected a claim, got ${decision.type}`);
  loseNextCommitReply();
  const outcome = await kit.clients.createIndividual(principal, payload, { claim: decision.ref });
  expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'CommitOutcomeUnknown', store: 'postgres' });
  // The command released the key on this failure: a no-op, since the kept commit completed it.

  // The commit was kept: the client, its document row and the copy all exist.
  const inspect = rawSqlInspector(pool, kitTables(schema));
  const [documentKey] = memory.testing.listDocumentKeys();
  expect(documentKey).toMatch(/^[0-9a-f-]{36}_passport\.pdf$/);
  expect(memory.testing.readDocument(documentKey ?? '')).toEqual(new TextEncoder().encode('%PDF-1.7 scan'));
  // Nothing was deleted on an unknown outcome: the temporary file stays too (it expires).
  expect(memory.testing.readTemporaryFile(owner, 'passport.pdf')).not.toBeNull();

  // The retry with the same key replays the saved client, whose document is there to download.
  const retry = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
  if (retry.type !== 'Replay') throw new Error(`expected a replay, got ${retry.type}`);
  if (retry.outcome.kind !== 'command' || !retry.outcome.ok) throw new Error('expected the saved client');
  const saved = retry.outcome.value as { id: string; individualProfile: { idDocuments: string[] } };
  expect(saved.individualProfile.idDocuments).toEqual([documentKey]);
  expect(await inspect.readClient(saved.id)).not.toBeNull();
  const download = await kit.documents.requestDownloadBatch(principal, { filenames: [documentKey] });
  expect(download.isOk()).toBe(true);
});

it('a lost COMMIT reply of a transition (BEGIN … COMMIT) is CommitOutcomeUnknown, and the retry replays the kept outcome', async () => {
  const { kit, manager: principal, upload } = kitOnPostgres(createPostgresAdapters({ pool, schema }));
  upload('passport.pdf');
  const client = (await kit.clients.createIndividual(principal, exampleIndividualPayload()))._unsafeUnwrap();
  const compliance = { kind: 'compliance', complianceId: 'compliance-1' } as const;
  const claimInput = {
    scope: `compliance:compliance-1 POST /compliance/v1/clients/${client.id}/approve`,
    owner: 'compliance:compliance-1',
    key: 'approve-1',
    body: null,
  };
  const decision = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
  if (decision.type !== 'Claimed') throw new Error(`expected a claim, got ${decision.type}`);
  loseNextCommitReply();
  const outcome = await kit.compliance.approve(compliance, client.id, { claim: decision.ref });
  expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'CommitOutcomeUnknown', store: 'postgres' });

  // The commit was kept: the client moved on, and the retry with the key replays the approval.
  const inspect = rawSqlInspector(pool, kitTables(schema));
  expect((await inspect.readClient(client.id))?.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
  const retry = (await kit.idempotency.claim(claimInput))._unsafeUnwrap();
  if (retry.type !== 'Replay') throw new Error(`expected a replay, got ${retry.type}`);
  expect(retry.outcome).toMatchObject({
    kind: 'command',
    ok: true,
    value: { id: client.id, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' },
  });
});

it('a COMMIT the server refuses is a plain StorageUnavailable: the copies go, the temporary files stay', async () => {
  const principal: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const memory = createMemoryAdapters();
  const adapters = createPostgresAdapters({ pool, schema });
  const kit = createOnboardingKit({
    ...adapters,
    // The work runs in the real transaction; a deferred check fails at COMMIT, as a server refusal.
    unitOfWork: {
      transaction: (work) =>
        adapters.unitOfWork.transaction((stores) =>
          work(stores).andThen((value) =>
            stores.documents
              .insertMany([
                {
                  key: `${randomUUID()}_dangling.pdf`,
                  clientId: randomUUID(),
                  managerId: principal.managerId,
                  filename: 'dangling.pdf',
                  size: 1,
                  storedAt: new Date().toISOString(),
                },
              ])
              .map(() => value),
          ),
        ),
    },
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
  });
  const owner = `manager:${principal.managerId}`;
  memory.testing.putTemporaryFile(owner, 'passport.pdf', new TextEncoder().encode('%PDF-1.7 scan'));
  const outcome = await kit.clients.createIndividual(principal, exampleIndividualPayload());
  expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
  expect(memory.testing.listDocumentKeys()).toEqual([]);
  expect(memory.testing.readTemporaryFile(owner, 'passport.pdf')).not.toBeNull();
});
