import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CompliancePrincipal, exampleIndividualPayload } from '@onboarding-kit/core';
import { firstAuditChainBreak, portableTextHashing, type UnitOfWork } from '@onboarding-kit/core/adapter';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { createPostgresAuditLog } from '../src/postgres-audit-log.js';
import type { SqlSession } from '../src/sql-session.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, newSchemaName, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-7' };

const rowsOf = async (clientId: string) =>
  (
    await database.pool.query<{ id: string; action: string; actor_id: string; request_id: string | null }>(
      `SELECT id, action, actor_id, request_id FROM ${database.tables.auditEntries} WHERE client_id = $1 ORDER BY position`,
      [clientId],
    )
  ).rows;

describe('the audit trail on PostgreSQL', () => {
  it('each command writes one entry in its transaction', async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload(), { requestId: 'req-1' })
    )._unsafeUnwrap();
    (await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Expired' }))._unsafeUnwrap();
    upload('passport.pdf');
    const payload = exampleIndividualPayload();
    payload.profile.lastName = 'Dupont';
    (
      await kit.clients.resubmitIndividual(manager, client.id, payload, { requestId: 'req-3' })
    )._unsafeUnwrap();
    (await kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
    const key = client.individualProfile?.idDocuments[0] as string;
    (
      await kit.documents.requestDownloadBatch(manager, { filenames: [key] }, { requestId: 'req-5' })
    )._unsafeUnwrap();

    const rows = await rowsOf(client.id);
    expect(rows.map(({ action, actor_id, request_id }) => [action, actor_id, request_id])).toEqual([
      ['create', manager.managerId, 'req-1'],
      ['request-resubmission', 'officer-7', null],
      ['resubmit', manager.managerId, 'req-3'],
      ['approve', 'officer-7', null],
      ['download-links-issued', manager.managerId, 'req-5'],
    ]);
    const read = (await kit.audit.list(compliance, client.id, { limit: '100' }))._unsafeUnwrap();
    expect(read.data.map(({ id }) => id)).toEqual(rows.map(({ id }) => id));
    expect(read.data[2]?.changes).toContainEqual({
      path: 'profile.lastName',
      before: 'Durand',
      after: 'Dupont',
    });
    expect(read.data[4]?.documents).toEqual([key]);
    expect(read.data[0]?.at).toBe(client.createdAt);
  });

  it('no entry, no change: an entry the table refuses rolls the create or the move back', async () => {
    const { kit: plain, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (
      await plain.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrap();
    const [taken] = await rowsOf(client.id);
    // Every entry is appended under an id the table already holds: the primary key refuses it.
    const reusingIds: UnitOfWork = {
      transaction: (work) =>
        database.adapters.unitOfWork.transaction((stores) =>
          work({
            ...stores,
            audit: {
              ...stores.audit,
              append: (entries) =>
                stores.audit.append(entries.map((entry) => ({ ...entry, id: taken?.id as string }))),
            },
          }),
        ),
    };
    const { kit } = kitOnPostgres(database.adapters, { unitOfWork: reusingIds });
    expect((await kit.compliance.approve(compliance, client.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'StorageUnavailable',
    });
    const stored = await database.pool.query(`SELECT status FROM ${database.tables.clients} WHERE id = $1`, [
      client.id,
    ]);
    expect(stored.rows[0]?.status).toBe('ONBOARDING_UNDER_REVIEW');

    const other = kitOnPostgres(database.adapters, { unitOfWork: reusingIds });
    other.upload('passport.pdf');
    expect(
      (
        await other.kit.clients.createIndividual(other.manager, exampleIndividualPayload())
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'StorageUnavailable' });
    const created = await database.pool.query(
      `SELECT count(*)::int AS n FROM ${database.tables.clients} WHERE manager_id = $1`,
      [other.manager.managerId],
    );
    expect(created.rows[0]?.n).toBe(0);
    expect((await rowsOf(client.id)).map(({ action }) => action)).toEqual(['create']);
  });

  it("refuses UPDATE, DELETE and TRUNCATE of entries; redaction may only redact a redacted client's values", async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const table = database.tables.auditEntries;
    const refused = async (statements: readonly string[]) => {
      const connection = await database.ownerPool.connect();
      try {
        await connection.query('BEGIN');
        for (const statement of statements)
          await connection.query(statement, statement.includes('$1') ? [client.id] : []);
        await connection.query('COMMIT');
        return null;
      } catch (failure) {
        await connection.query('ROLLBACK');
        return failure as { code?: string; message: string };
      } finally {
        connection.release();
      }
    };
    const redacting = "SET LOCAL onboarding_kit.redacting = 'on'";
    for (const statements of [
      [`UPDATE ${table} SET changes = '[]' WHERE client_id = $1`],
      [`UPDATE ${table} SET actor_id = 'someone else' WHERE client_id = $1`],
      [`DELETE FROM ${table} WHERE client_id = $1`],
      [`TRUNCATE ${table}`],
      [redacting, `UPDATE ${table} SET actor_id = 'someone else' WHERE client_id = $1`],
      [redacting, `UPDATE ${table} SET at = now() WHERE client_id = $1`],
      [redacting, `DELETE FROM ${table} WHERE client_id = $1`],
      [redacting, `TRUNCATE ${table}`],
    ]) {
      expect(await refused(statements), statements.join('; ')).toMatchObject({
        code: '42501',
        message: expect.stringContaining('append-only'),
      });
    }
    expect((await rowsOf(client.id)).map(({ actor_id }) => actor_id)).toEqual([manager.managerId]);

    // What redaction writes, sent by the role itself on a live client: refused (it was let through before).
    const redactionLike = `UPDATE ${table} SET changes = (SELECT json_agg(json_build_object('path', c->>'path', 'before', '[redacted]', 'after', '[redacted]')) FROM json_array_elements(changes) c), changes_salt = NULL WHERE client_id = $1`;
    const exactRedaction = `UPDATE ${table} SET changes = ${database.tables.quotedSchema}.audit_changes_redacted(changes), changes_salt = NULL WHERE client_id = $1`;
    for (const statement of [redactionLike, exactRedaction]) {
      expect(await refused([redacting, statement]), statement).toMatchObject({ code: '42501' });
    }
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({ verified: true });

    // Once the client is deleted and redacted, only the exact redaction gets through.
    (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    await database.pool.query(`UPDATE ${database.tables.clients} SET redacted_at = now() WHERE id = $1`, [
      client.id,
    ]);
    for (const statements of [
      [redacting, `UPDATE ${table} SET changes = '[]' WHERE client_id = $1`],
      [redacting, `UPDATE ${table} SET changes = audit_changes_redacted(changes) WHERE client_id = $1`],
      [redacting, `UPDATE ${table} SET changes_salt = NULL WHERE client_id = $1`],
      [
        redacting,
        `UPDATE ${table} SET changes = audit_changes_redacted(changes), changes_salt = NULL, hash = 'x' WHERE client_id = $1`,
      ],
      [
        redacting,
        `UPDATE ${table} SET changes = (SELECT json_agg(json_build_object('path', c->>'path', 'before', 'Someone', 'after', 'Else')) FROM json_array_elements(changes) c), changes_salt = NULL WHERE client_id = $1`,
      ],
      [exactRedaction],
    ]) {
      const failure = await refused([
        `SET LOCAL search_path TO ${database.tables.quotedSchema}`,
        ...statements,
      ]);
      expect(failure, statements.join('; ')).toMatchObject({ code: '42501' });
    }
    expect(await refused([redacting, exactRedaction])).toBeNull();
    const [entry] = (await kit.audit.list(manager, client.id, {}))._unsafeUnwrap().data;
    expect(entry?.changes.length).toBeGreaterThan(10);
    expect(
      entry?.changes.every(
        ({ before, after }) => (before === null || before === '[redacted]') && after === '[redacted]',
      ),
    ).toBe(true);
    // Every link holds, but the kit's redaction appends a `redact` entry in the transaction that
    // erases the salts: without it, verification names the first erased entry.
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 2,
      firstBrokenLink: { sequence: 1, reason: 'CHANGES_ALTERED' },
    });
    // The adapter's redaction, inside a transaction, turns the setting off again after its UPDATE:
    // a later statement of the same transaction is refused.
    const connection = await database.ownerPool.connect();
    try {
      await connection.query('BEGIN');
      const inTransaction = {
        query: connection.query.bind(connection),
        atomically: (run: (db: typeof connection) => Promise<unknown>) => run(connection),
      } as unknown as SqlSession;
      expect(
        (await createPostgresAuditLog(inTransaction, database.tables).redactChanges(client.id)).isOk(),
      ).toBe(true);
      await expect(
        connection.query(`UPDATE ${table} SET changes = '[]' WHERE client_id = $1`, [client.id]),
      ).rejects.toMatchObject({
        code: '42501',
      });
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
    // SET LOCAL ends with its transaction: the next one is refused again.
    expect(await refused([`UPDATE ${table} SET changes = '[]' WHERE client_id = $1`])).toMatchObject({
      code: '42501',
    });
  });

  it('the table chains every INSERT, whatever it says, and refuses a backdated one', async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const table = database.tables.auditEntries;
    const insert = (at: string) =>
      database.pool.query(
        `INSERT INTO ${table} (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents,
           sequence, previous_hash, changes_salt, changes_digest, hash)
         VALUES (gen_random_uuid(), $1, 'approve', 'compliance', 'officer-0', NULL, $2, '[]', '{}',
           1, NULL, 'salt', 'digest', 'made-up')`,
        [client.id, at],
      );
    // A week before the create: refused.
    await expect(
      insert(new Date(Date.parse(client.createdAt) - 7 * 86_400_000).toISOString()),
    ).rejects.toMatchObject({ code: '23514' });
    // Dated now, with made-up chain columns: the table chains it after the create all the same.
    await insert(new Date().toISOString());
    const trail = (
      await database.adapters.audit.listForClient({ clientId: client.id, limit: 10 })
    )._unsafeUnwrap();
    expect(trail.map(({ link }) => link.sequence)).toEqual([1, 2]);
    expect(trail[1]?.link.previousHash).toBe(trail[0]?.link.hash);
    expect(trail[1]?.link.hash).not.toBe('made-up');
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 2,
    });
  });

  it('verification names the first row forged with raw SQL', async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    (await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Expired' }))._unsafeUnwrap();
    (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    const rows = await rowsOf(client.id);
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 3,
      firstBrokenLink: null,
    });
    const connection = await database.ownerPool.connect();
    try {
      // A superuser (or the table's owner, disabling the triggers) rewrites who asked for resubmission.
      await connection.query('BEGIN');
      await connection.query('SET LOCAL session_replication_role = replica');
      await connection.query(
        `UPDATE ${database.tables.auditEntries} SET actor_id = 'officer-1' WHERE id = $1`,
        [rows[1]?.id],
      );
      await connection.query('COMMIT');
    } finally {
      connection.release();
    }
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toEqual({
      clientId: client.id,
      verified: false,
      checkedEntries: 2,
      lastHash: null,
      head: null,
      sealsChecked: false,
      anchor: null,
      firstBrokenLink: { entryId: rows[1]?.id, sequence: 2, reason: 'ENTRY_ALTERED' },
    });
  });

  it("migration 0027: a trail's entries chained before it and after it verify together, before and after redaction", async () => {
    const pool = new pg.Pool({ connectionString: database.ownerConnectionString, max: 2 });
    const schema = newSchemaName();
    const shipped = fileURLToPath(new URL('../migrations/', import.meta.url));
    const directory = await mkdtemp(join(tmpdir(), 'kit-migrations-'));
    try {
      const files = (await readdir(shipped)).filter((file) => file.endsWith('.sql')).sort();
      for (const file of files.filter((name) => name < '0027')) {
        await copyFile(join(shipped, file), join(directory, file));
      }
      await migrate(pool, { schema, migrationsDirectory: directory });
      const client = randomUUID();
      const [oldKey, newKey] = [`${randomUUID()}_passport_jane.pdf`, `${randomUUID()}_visa_jane.pdf`];
      await pool.query(
        `INSERT INTO "${schema}".clients (id, manager_id, client_type, status, created_at, updated_at)
         VALUES ($1, 'm-1', 'INDIVIDUAL', 'ONBOARDING_UNDER_REVIEW', now(), now())`,
        [client],
      );
      // Chained by migration 0007's trigger (version 1).
      for (const [action, changes] of [
        ['create', [{ path: 'profile.idDocuments[0]', before: null, after: oldKey }]],
        ['download-links-issued', []],
      ] as const) {
        await pool.query(
          `INSERT INTO "${schema}".audit_entries (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
           VALUES ($1, $2, $3, 'manager', 'm-1', NULL, '2030-01-01T00:00:00.000Z', $4, $5)`,
          [randomUUID(), client, action, JSON.stringify(changes), action === 'create' ? [] : [oldKey]],
        );
      }
      for (const file of files) await copyFile(join(shipped, file), join(directory, file));
      expect(
        (await migrate(pool, { schema, migrationsDirectory: directory }))._unsafeUnwrap().applied,
      ).toEqual(files.filter((name) => name >= '0027'));
      const { audit } = createPostgresAdapters({ pool, schema });
      const entry = (action: 'download-links-issued' | 'delete', documents: string[]) => ({
        id: randomUUID(),
        clientId: client,
        action,
        actor: { kind: 'manager' as const, id: 'm-1' },
        requestId: null,
        at: '2030-01-02T00:00:00.000Z',
        changes: [],
        documents,
      });
      (
        await audit.append([entry('download-links-issued', [newKey, oldKey]), entry('delete', [])])
      )._unsafeUnwrap();
      const trail = async () => (await audit.listForClient({ clientId: client, limit: 10 }))._unsafeUnwrap();
      const before = await trail();
      expect(before.map(({ link }) => link.documentsDigest !== null)).toEqual([false, false, true, true]);
      expect(firstAuditChainBreak(portableTextHashing, before, false)).toBeNull();

      await pool.query(
        `UPDATE "${schema}".clients SET status = 'DELETED', deleted_at = now(), redacted_at = now() WHERE id = $1`,
        [client],
      );
      (await audit.redactChanges(client))._unsafeUnwrap();
      const after = await trail();
      expect(firstAuditChainBreak(portableTextHashing, after, true)).toBeNull();
      expect(after.map(({ link }) => link.hash)).toEqual(before.map(({ link }) => link.hash));
      expect(after.map(({ entry: { documents } }) => documents)).toEqual([
        [],
        [oldKey],
        [`${newKey.slice(0, 36)}_[redacted]`, `${oldKey.slice(0, 36)}_[redacted]`],
        [],
      ]);
      expect(after[0]?.entry.changes).toEqual([
        { path: 'profile.idDocuments[0]', before: null, after: '[redacted]' },
      ]);
    } finally {
      await pool.query(
        `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`,
      );
      await pool.end();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('migration 0007 chains the trails written before it', async () => {
    const pool = new pg.Pool({ connectionString: database.ownerConnectionString, max: 2 });
    const schema = newSchemaName();
    const shipped = fileURLToPath(new URL('../migrations/', import.meta.url));
    const directory = await mkdtemp(join(tmpdir(), 'kit-migrations-'));
    try {
      const files = (await readdir(shipped)).filter((file) => file.endsWith('.sql')).sort();
      for (const file of files.filter((name) => name < '0007')) {
        await copyFile(join(shipped, file), join(directory, file));
      }
      await migrate(pool, { schema, migrationsDirectory: directory });
      const clients = [randomUUID(), randomUUID()];
      const insert = (clientId: string, at: string, changes: unknown) =>
        pool.query(
          `INSERT INTO "${schema}".audit_entries (id, client_id, action, actor_kind, actor_id, request_id, at, changes, documents)
           VALUES ($1, $2, 'resubmit', 'manager', 'm-1', 'req é', $3, $4, '{k}')`,
          [randomUUID(), clientId, at, JSON.stringify(changes)],
        );
      await insert(clients[0] as string, '2030-01-01T00:00:00.000Z', [
        { path: 'a', before: 'x', after: 'y' },
      ]);
      await insert(clients[1] as string, '2030-01-01T00:00:00.000Z', []);
      await insert(clients[0] as string, '2030-01-02T00:00:00.000Z', [{ path: 'b', before: null, after: 2 }]);
      await insert(clients[0] as string, '2030-01-03T00:00:00.000Z', []);
      for (const file of files) await copyFile(join(shipped, file), join(directory, file));
      expect(
        (await migrate(pool, { schema, migrationsDirectory: directory }))._unsafeUnwrap().applied,
      ).toContain('0007_audit_chain.sql');
      const { audit } = createPostgresAdapters({ pool, schema });
      for (const [clientId, count] of [
        [clients[0] as string, 3],
        [clients[1] as string, 1],
      ] as const) {
        const trail = (await audit.listForClient({ clientId, limit: 10 }))._unsafeUnwrap();
        expect(trail.map(({ link }) => link.sequence)).toEqual(
          Array.from({ length: count }, (_, i) => i + 1),
        );
        expect(firstAuditChainBreak(portableTextHashing, trail, false)).toBeNull();
      }
    } finally {
      await pool.query(
        `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`,
      );
      await pool.end();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
