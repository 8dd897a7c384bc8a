import { type CompliancePrincipal, exampleEntityPayload } from '@onboarding-kit/core';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * A command that waits for a client's lock reads the client as the writer it waited for left it,
 * child rows included. In READ COMMITTED, a `SELECT … FOR UPDATE` that waits on a row re-reads that
 * row at its newest version but evaluates the rest of the statement (the child rows' subqueries)
 * in the snapshot it began with; an approve that read the client that way wrote the bank accounts
 * of before a resubmission back over the resubmitted ones.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-wait' };

test('an approve that waited on a resubmission keeps the resubmitted child rows', async () => {
  const { kit, manager } = kitOnPostgres(database.adapters);
  const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
  (
    await kit.compliance.requestResubmission(compliance, created.id, { reason: 'Bank account' })
  )._unsafeUnwrap();
  expect(created.bankAccounts).toHaveLength(1);

  // Another process resubmits: its transaction holds the client's lock while the approve arrives.
  const writer = await database.pool.connect();
  const monitor = new pg.Client({ connectionString: database.connectionString });
  await monitor.connect();
  try {
    await writer.query('BEGIN');
    await writer.query(
      `UPDATE ${database.tables.clients} SET status = 'ONBOARDING_UNDER_REVIEW', updated_at = now() WHERE id = $1`,
      [created.id],
    );
    await writer.query(
      `UPDATE ${database.tables.bankAccounts} SET label = 'Resubmitted account' WHERE client_id = $1`,
      [created.id],
    );
    const approved = kit.compliance.approve(compliance, created.id);
    const waiting = async () =>
      Number(
        (
          await monitor.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          )
        ).rows[0]?.n,
      );
    const until = Date.now() + 10_000;
    while ((await waiting()) < 1 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await waiting()).toBe(1);
    await writer.query('COMMIT');

    const answer = (await approved)._unsafeUnwrap();
    expect(answer.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
    expect(answer.bankAccounts.map(({ label }) => label)).toEqual(['Resubmitted account']);
    const stored = (await kit.clients.get(manager, created.id))._unsafeUnwrap();
    expect(stored.bankAccounts.map(({ label }) => label)).toEqual(['Resubmitted account']);
  } finally {
    await monitor.end();
    writer.release();
  }
});
