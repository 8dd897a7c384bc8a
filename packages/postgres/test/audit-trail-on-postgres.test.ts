import { type CompliancePrincipal, exampleIndividualPayload } from '@onboarding-kit/core';
import type { UnitOfWork } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAuditLog } from '../src/postgres-audit-log.js';
import type { SqlSession } from '../src/sql-session.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

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

  it('refuses UPDATE, DELETE and TRUNCATE of entries; redaction may rewrite changes and nothing else', async () => {
    const { kit, manager, upload } = kitOnPostgres(database.adapters);
    upload('passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const table = database.tables.auditEntries;
    const refused = async (statements: readonly string[]) => {
      const connection = await database.pool.connect();
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

    expect(
      await refused([
        redacting,
        `UPDATE ${table} SET changes = (SELECT json_agg(json_build_object('path', c->>'path', 'before', '[redacted]', 'after', '[redacted]')) FROM json_array_elements(changes) c) WHERE client_id = $1`,
      ]),
    ).toBeNull();
    const [entry] = (await kit.audit.list(manager, client.id, {}))._unsafeUnwrap().data;
    expect(entry?.changes.length).toBeGreaterThan(10);
    expect(
      entry?.changes.every(({ before, after }) => before === '[redacted]' && after === '[redacted]'),
    ).toBe(true);
    // The adapter's redaction, inside a transaction, turns the setting off again after its UPDATE:
    // a later statement of the same transaction is refused.
    const connection = await database.pool.connect();
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
});
