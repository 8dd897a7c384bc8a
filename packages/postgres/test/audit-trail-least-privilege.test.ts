import { randomBytes, randomUUID } from 'node:crypto';
import {
  type CompliancePrincipal,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresOnboardingKitOptions,
  startPostgresOnboardingKit,
} from '../src/start-postgres-onboarding-kit.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * The audit trail against the database role the kit serves as (docs/data-protection.md): the
 * tables' owner can switch the trail's triggers off and cut its tail, which the chain cannot show;
 * a role granted by `grantServingRole` (startPostgresOnboardingKit's `migrationPool`) cannot.
 */
const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-7' };

let database: MigratedDatabase;
let role: string;
let servingPool: pg.Pool;
beforeAll(async () => {
  database = await openMigratedDatabase();
  role = `kit_serving_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await database.ownerPool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const url = new URL(database.connectionString);
  url.username = role;
  url.password = password;
  servingPool = new pg.Pool({ connectionString: url.toString(), max: 4 });
});
afterAll(async () => {
  await servingPool?.end();
  // The role's grants are in this file's database only; a role is the server's, so it goes too.
  await database.ownerPool.query(`DROP OWNED BY ${role}`);
  await database.ownerPool.query(`DROP ROLE ${role}`);
  await database.close();
});

/** The kit started as the serving role, and a manager with a file to upload. */
const startAsServingRole = async (options: Partial<PostgresOnboardingKitOptions> = {}) => {
  const memory = createMemoryAdapters();
  const started = await startPostgresOnboardingKit({
    pool: servingPool,
    migrationPool: database.ownerPool,
    schema: database.schema,
    documentStorage: memory.documentStorage,
    ...options,
  });
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  memory.testing.putTemporaryFile(`manager:${manager.managerId}`, 'passport.pdf', new Uint8Array(8));
  const created = await started.kit.clients.createIndividual(manager, exampleIndividualPayload());
  return { ...started, manager, client: created._unsafeUnwrap() };
};

describe('the audit trail against the role the kit serves as', () => {
  it("the tables' owner can switch the trail's triggers off and cut its tail, which only an anchor kept outside shows", async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    (await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Expired' }))._unsafeUnwrap();
    (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    // The head kept outside the database before the cut (docs/data-protection.md, "Anchors").
    const { head } = (await kit.audit.verify(compliance, client.id))._unsafeUnwrap();
    const table = `${database.schema}.audit_entries`;
    const connection = await database.ownerPool.connect();
    try {
      await connection.query('BEGIN');
      await connection.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      await connection.query(
        `DELETE FROM ${table} WHERE client_id = $1 AND sequence = (SELECT max(sequence) FROM ${table} WHERE client_id = $1)`,
        [client.id],
      );
      await connection.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      await connection.query('COMMIT');
    } finally {
      connection.release();
    }
    // The delete is gone from the trail and the chain still holds: only the anchor kept elsewhere tells.
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 2,
      firstBrokenLink: null,
    });
    const anchor = { anchorSequence: String(head?.sequence), anchorHash: head?.hash };
    expect((await kit.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 2,
      firstBrokenLink: { entryId: null, sequence: 3, reason: 'TAIL_MISSING' },
    });
  });

  it('started with migrationPool, the kit serves as a role that appends and redacts but cannot switch triggers off, delete, truncate or rewrite', async () => {
    const started = await startAsServingRole();
    try {
      const { kit, manager, client } = started;
      (
        await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Expired' })
      )._unsafeUnwrap();
      (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
      expect((await kit.redaction.redact(compliance, client.id))._unsafeUnwrap().redactedAt).not.toBeNull();
      const verified = (await kit.audit.verify(compliance, client.id))._unsafeUnwrap();
      expect(verified).toMatchObject({ verified: true, checkedEntries: 4, firstBrokenLink: null });

      const table = `${database.schema}.audit_entries`;
      const refusal = (statement: string) =>
        servingPool.query(statement, statement.includes('$1') ? [client.id] : []).then(
          () => 'done',
          (failure: { code?: string; message?: string }) => `${failure.code}: ${failure.message}`,
        );
      expect(await refusal(`ALTER TABLE ${table} DISABLE TRIGGER USER`)).toBe(
        '42501: must be owner of table audit_entries',
      );
      expect(await refusal('SET session_replication_role = replica')).toBe(
        '42501: permission denied to set parameter "session_replication_role"',
      );
      expect(await refusal(`DELETE FROM ${table} WHERE client_id = $1`)).toBe(
        '42501: permission denied for table audit_entries',
      );
      expect(await refusal(`TRUNCATE ${table}`)).toBe('42501: permission denied for table audit_entries');
      expect(await refusal(`UPDATE ${table} SET actor_id = 'officer-1' WHERE client_id = $1`)).toBe(
        '42501: permission denied for table audit_entries',
      );
      expect(await refusal(`DROP TABLE ${table}`)).toBe('42501: must be owner of table audit_entries');
      expect(await refusal(`DELETE FROM ${database.schema}.schema_migrations`)).toBe(
        '42501: permission denied for table schema_migrations',
      );
      // The status history and the event log beside it: appended to and redacted, never deleted,
      // and only redaction's columns rewritten.
      const history = `${database.schema}.client_status_history`;
      const events = `${database.schema}.client_events`;
      const clients = `${database.schema}.clients`;
      for (const statement of [
        `DELETE FROM ${history} WHERE client_id = $1`,
        `UPDATE ${history} SET actor = 'officer-1' WHERE client_id = $1`,
        `TRUNCATE ${history}`,
      ]) {
        expect(await refusal(statement)).toBe('42501: permission denied for table client_status_history');
      }
      for (const statement of [
        `DELETE FROM ${events} WHERE client_id = $1`,
        `UPDATE ${events} SET type = 'client.approved' WHERE client_id = $1`,
        `TRUNCATE ${events}`,
      ]) {
        expect(await refusal(statement)).toBe('42501: permission denied for table client_events');
      }
      // Deleting the client row would cascade to its history.
      expect(await refusal(`DELETE FROM ${clients} WHERE id = $1`)).toBe(
        '42501: permission denied for table clients',
      );
      const historyRows = await database.ownerPool.query(
        `SELECT count(*)::int AS n FROM ${history} WHERE client_id = $1`,
        [client.id],
      );
      expect(historyRows.rows[0]?.n).toBe(3);
      // The trail is as the kit left it.
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toEqual(verified);
    } finally {
      await started.close();
    }
  });

  it("the serving role cannot rewrite a live client's decision reasons or events, and redaction still can", async () => {
    const started = await startAsServingRole({ jobRunner: false });
    try {
      const { kit, manager, client } = started;
      (
        await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Expired' })
      )._unsafeUnwrap();
      const history = `${database.schema}.client_status_history`;
      const events = `${database.schema}.client_events`;
      const refusal = (statement: string) =>
        servingPool.query(statement, [client.id]).then(
          (result) => `done: ${result.rowCount}`,
          (failure: { code?: string; message?: string }) => `${failure.code}: ${failure.message}`,
        );
      const historyRefused =
        '42501: a status history reason is rewritten only by redaction of a deleted client';
      const eventRefused = '42501: an event body is rewritten only by redaction of a redacted client';
      const rewrites = () => [
        [
          `UPDATE ${history} SET reason = 'Approved by the board' WHERE client_id = $1 AND reason IS NOT NULL`,
          historyRefused,
        ],
        [
          `UPDATE ${history} SET reason = '[redacted]' WHERE client_id = $1 AND reason IS NOT NULL`,
          historyRefused,
        ],
        [
          `UPDATE ${events} SET body = json_build_object('type', 'client.approved') WHERE client_id = $1`,
          eventRefused,
        ],
        [
          `UPDATE ${events} SET body = (body::jsonb || '{"data": {}}')::json WHERE client_id = $1`,
          eventRefused,
        ],
      ];
      const bodiesNow = () =>
        database.ownerPool
          .query(`SELECT body FROM ${events} WHERE client_id = $1`, [client.id])
          .then((result) => JSON.stringify(result.rows));
      expect(await bodiesNow()).toContain('Camille');
      // A live client: nothing of its record is rewritten.
      for (const [statement, refused] of rewrites()) expect(await refusal(statement as string)).toBe(refused);
      // Deleted: its reasons may be redacted (and nothing else); its events not before it is marked.
      (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
      const [forged, early, ...eventRewrites] = rewrites();
      expect(await refusal(forged?.[0] as string)).toBe(historyRefused);
      expect(await refusal(early?.[0] as string)).toBe('done: 1');
      for (const [statement, refused] of eventRewrites)
        expect(await refusal(statement as string)).toBe(refused);
      // A body left as it was is no rewrite (the event log's FOR UPDATE read, a no-op UPDATE).
      expect(await refusal(`UPDATE ${events} SET body = body WHERE client_id = $1`)).toMatch(/^done: [1-9]/);
      // Redaction itself goes through, and the trail still verifies.
      expect((await kit.redaction.redact(compliance, client.id))._unsafeUnwrap().redactedAt).not.toBeNull();
      expect(await bodiesNow()).not.toContain('Camille');
      // Once redacted, an event's envelope (its type) still cannot change.
      expect(
        await refusal(
          `UPDATE ${events} SET body = json_build_object('type', 'client.approved', 'data', body->'data') WHERE client_id = $1`,
        ),
      ).toBe(eventRefused);
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap().verified).toBe(true);
    } finally {
      await started.close();
    }
  });

  it("the serving role cannot rewrite the file names of a live client's trail, and redaction replaces only theirs", async () => {
    const started = await startAsServingRole({ jobRunner: false });
    try {
      const { kit, manager, client } = started;
      const key = client.individualProfile?.idDocuments[0] as string;
      expect(key).toMatch(/_passport\.pdf$/);
      (await kit.documents.requestDownloadBatch(manager, { filenames: [key] }))._unsafeUnwrap();
      const entries = `${database.schema}.audit_entries`;
      const fn = (name: string) => `${database.schema}.${name}`;
      /** `statement` as the serving role, in one transaction, as redaction sends it (the setting on) or not. */
      const asServingRole = async (statement: string, redacting = true) => {
        const connection = await servingPool.connect();
        try {
          await connection.query('BEGIN');
          if (redacting) await connection.query("SELECT set_config('onboarding_kit.redacting', 'on', true)");
          const result = await connection.query(statement, [client.id]);
          await connection.query('COMMIT');
          return `done: ${result.rowCount}`;
        } catch (failure) {
          await connection.query('ROLLBACK');
          const { code, message } = failure as { code?: string; message?: string };
          return `${code}: ${message}`;
        } finally {
          connection.release();
        }
      };
      const appendOnly = '42501: audit entries are append-only: UPDATE refused';
      // Exactly redaction's rewrite, of a live client: refused.
      const redaction = `UPDATE ${entries} SET changes = ${fn('audit_changes_redacted')}(changes), changes_salt = NULL,
        documents = ${fn('audit_documents_redacted')}(documents) WHERE client_id = $1`;
      const otherNames = `UPDATE ${entries} SET changes = ${fn('audit_changes_redacted')}(changes), changes_salt = NULL,
        documents = array_replace(documents, '${key.slice(0, 36)}_[redacted]', '${key.slice(0, 36)}_visa.pdf')
        WHERE client_id = $1`;
      expect(await asServingRole(redaction)).toBe(appendOnly);
      expect(await asServingRole(`UPDATE ${entries} SET documents = '{}' WHERE client_id = $1`, false)).toBe(
        appendOnly,
      );
      // The rule's version is the stored form, which the role cannot change.
      expect(await asServingRole(`UPDATE ${entries} SET documents_digest = NULL WHERE client_id = $1`)).toBe(
        '42501: permission denied for table audit_entries',
      );
      // Deleted, not redacted yet: still refused.
      (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
      expect(await asServingRole(redaction)).toBe(appendOnly);
      expect((await kit.redaction.redact(compliance, client.id))._unsafeUnwrap().redactedAt).not.toBeNull();
      // Redacted: only exactly the redacted form passes (here a no-op, as a retried redaction).
      expect(await asServingRole(otherNames)).toBe(appendOnly);
      expect(await asServingRole(redaction)).toMatch(/^done: [1-9]/);
      const trail = await database.ownerPool.query<{ documents: string[] }>(
        `SELECT documents FROM ${entries} WHERE client_id = $1 ORDER BY sequence`,
        [client.id],
      );
      expect(JSON.stringify(trail.rows)).not.toContain('passport');
      // create (its keys are in its changes, redacted), download-links-issued, delete, redact.
      expect(trail.rows.map((row) => row.documents)).toEqual([
        [],
        [`${key.slice(0, 36)}_[redacted]`],
        [],
        [],
      ]);
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
        verified: true,
        checkedEntries: 4,
      });
    } finally {
      await started.close();
    }
  });

  it('the serving role can mark a live client redacted and erase its trail itself, which verification reports', async () => {
    const started = await startAsServingRole({
      auditSealing: { keys: { '2026-11': randomBytes(32).toString('hex') }, sealWith: '2026-11' },
      jobRunner: false,
    });
    try {
      const { kit, manager, client } = started;
      const key = client.individualProfile?.idDocuments[0] as string;
      (await kit.documents.requestDownloadBatch(manager, { filenames: [key] }))._unsafeUnwrap();
      const entries = `${database.schema}.audit_entries`;
      const fn = (name: string) => `${database.schema}.${name}`;
      const asServingRole = async (...statements: string[]) => {
        const connection = await servingPool.connect();
        try {
          await connection.query('BEGIN');
          for (const statement of statements)
            await connection.query(statement, statement.includes('$1') ? [client.id] : []);
          await connection.query('COMMIT');
        } catch (failure) {
          await connection.query('ROLLBACK');
          throw failure;
        } finally {
          connection.release();
        }
      };
      // Its grants allow it all: the client row's status and mark, then redaction's own UPDATE.
      await asServingRole(
        `UPDATE ${database.schema}.clients SET status = 'DELETED', deleted_at = now(), redacted_at = now() WHERE id = $1`,
        "SELECT set_config('onboarding_kit.redacting', 'on', true)",
        `UPDATE ${entries} SET changes = ${fn('audit_changes_redacted')}(changes), changes_salt = NULL,
           documents = ${fn('audit_documents_redacted')}(documents) WHERE client_id = $1`,
      );
      // Every link still holds, but no `redact` entry follows the erased ones.
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
        verified: false,
        checkedEntries: 2,
        firstBrokenLink: { sequence: 1, reason: 'CHANGES_ALTERED' },
      });
      // Its own `redact` entry chains, and is not sealed.
      await asServingRole(
        `INSERT INTO ${entries} (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
         VALUES (gen_random_uuid(), $1, 'redact', 'compliance', 'officer-7', NULL, now(), '[]', '{}')`,
      );
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
        verified: false,
        firstBrokenLink: { sequence: 3, reason: 'UNSEALED' },
      });
    } finally {
      await started.close();
    }
  });

  it('with sealing keys, entries the serving role INSERTs itself chain but do not verify, and seals cannot be changed', async () => {
    const started = await startAsServingRole({
      auditSealing: { keys: { '2026-11': randomBytes(32).toString('hex') }, sealWith: '2026-11' },
      jobRunner: false,
    });
    try {
      const { kit, client } = started;
      (await kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
      const sealed = (await kit.audit.verify(compliance, client.id))._unsafeUnwrap();
      expect(sealed).toMatchObject({ verified: true, checkedEntries: 2, sealsChecked: true });

      const table = `${database.schema}.audit_entries`;
      const seals = `${database.schema}.audit_seals`;
      const forge = async () =>
        (
          await servingPool.query<{ id: string; hash: string }>(
            `INSERT INTO ${table} (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
             VALUES (gen_random_uuid(), $1, 'approve', 'compliance', 'officer-1', NULL, now(), '[]', '{}')
             RETURNING id, hash`,
            [client.id],
          )
        ).rows[0] as { id: string; hash: string };
      // What the database role can write: an entry the trigger chains like any other.
      const unsealed = await forge();
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
        verified: false,
        checkedEntries: 3,
        firstBrokenLink: { entryId: unsealed.id, sequence: 3, reason: 'UNSEALED' },
      });
      // Given a seal it made up, or one copied from a genuine entry: not the key's HMAC of its hash.
      await servingPool.query(`INSERT INTO ${seals} (entry_id, key_id, seal) VALUES ($1, '2026-11', $2)`, [
        unsealed.id,
        'f'.repeat(64),
      ]);
      expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap().firstBrokenLink).toMatchObject({
        sequence: 3,
        reason: 'SEAL_INVALID',
      });
      const refusal = (statement: string, values: unknown[] = []) =>
        servingPool.query(statement, values).then(
          () => 'done',
          (failure: { code?: string; message?: string }) => `${failure.code}: ${failure.message}`,
        );
      for (const statement of [
        `UPDATE ${seals} SET seal = 'x' WHERE entry_id = $1`,
        `DELETE FROM ${seals} WHERE entry_id = $1`,
      ]) {
        expect(await refusal(statement, [unsealed.id])).toBe(
          '42501: permission denied for table audit_seals',
        );
      }
      expect(await refusal(`TRUNCATE ${seals}`)).toBe('42501: permission denied for table audit_seals');
      // A second seal of a sealed entry is refused by its key.
      expect(
        await refusal(`INSERT INTO ${seals} (entry_id, key_id, seal) VALUES ($1, 'k', 'x')`, [unsealed.id]),
      ).toMatch(/^23505: /);
    } finally {
      await started.close();
    }
  });

  it('refuses to start with a migrationPool of the same role as the pool', async () => {
    const memory = createMemoryAdapters();
    await expect(
      startPostgresOnboardingKit({
        pool: database.ownerPool,
        migrationPool: database.ownerPool,
        schema: database.schema,
        documentStorage: memory.documentStorage,
        jobRunner: false,
      }),
    ).rejects.toThrow('migrationPool and pool connect as the same role');
  });
});
