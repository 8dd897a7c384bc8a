import { randomUUID } from 'node:crypto';
import { type CompliancePrincipal, exampleEntityPayload } from '@onboarding-kit/core';
import type { ScreeningMatch, ScreeningProvider } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { screeningQueue } from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { exited, nextLine, spawnTestProcess } from './child-process-runner.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-crash' };

/** A provider whose list is `targets`: a subject matches a target that lists its name as written. */
const exactList = (targets: readonly { id: string; names: string[] }[]): ScreeningProvider => ({
  screen: (subjects, scope) =>
    okAsync(
      subjects.flatMap((subject): ScreeningMatch[] =>
        targets
          .filter((target) => scope === undefined || scope.targetIds.includes(target.id))
          .filter((target) => target.names.includes(subject.name))
          .map((target) => ({
            field: subject.field,
            name: subject.name,
            listName: 'Test sanctions',
            matchedName: subject.name,
            score: 1,
            targetId: target.id,
          })),
      ),
    ),
});

const jobStates = async (version: string) =>
  (
    await database.pool.query<{ state: string }>(
      `SELECT state FROM ${database.tables.jobSchema}.job WHERE name = $1 AND data->>'version' = $2`,
      [screeningQueue, version],
    )
  ).rows.map((row) => row.state);

describe('a monitoring run on PostgreSQL whose process dies midway', () => {
  it("is finished by another process once the job's expiry passed, each hit recorded once", async () => {
    const tag = randomUUID().replaceAll('-', '').slice(0, 10);
    // More clients than one transaction records (20): the first group commits, the second is cut.
    const names = Array.from({ length: 22 }, (_, i) => `Client${i} Crash${tag}`);
    const targets = names.map((name) => ({ id: `T-${randomUUID()}`, names: [name] }));
    const { kit, manager } = kitOnPostgres(database.adapters, { screening: exactList([]) });
    const clientIds: string[] = [];
    for (const name of names) {
      const payload = exampleEntityPayload();
      const created = (
        await kit.clients.createEntity(manager, { ...payload, company: { ...payload.company, name } })
      )._unsafeUnwrap();
      (await kit.screening.runJob({ type: 'screen-client', clientId: created.id }))._unsafeUnwrap();
      clientIds.push(created.id);
    }
    // The screenings ran above: their queued jobs would find nothing to do.
    await database.pool.query(`DELETE FROM ${database.tables.jobSchema}.job WHERE name = $1`, [
      screeningQueue,
    ]);
    const version = `v-${randomUUID()}`;
    expect(
      (await kit.screening.listChanged({ version, changedTargets: targets }))._unsafeUnwrap(),
    ).toMatchObject({ batches: 1, enqueued: true });

    const child = spawnTestProcess('monitor-and-crash', [
      database.connectionString,
      database.schema,
      JSON.stringify(targets),
    ]);
    // Killed whatever ends the test, a timeout included.
    onTestFinished(async () => {
      child.kill('SIGKILL');
      await exited(child);
    });
    try {
      expect(await nextLine(child)).toBe('midway');
    } finally {
      child.kill('SIGKILL');
      await exited(child);
    }
    // The first group's hits are committed, the second's are not; the job is still the dead process's.
    const statusOf = async (clientId: string) =>
      (await kit.clients.get(manager, clientId))._unsafeUnwrap().screening?.status;
    const statuses = await Promise.all(clientIds.map(statusOf));
    expect(statuses.filter((status) => status === 'POSSIBLE_MATCH')).toHaveLength(20);
    expect(statuses.filter((status) => status === 'CLEAR')).toHaveLength(2);
    expect(await jobStates(version)).toEqual(['active']);

    // The expiry of the dead process's job passes (the engine's clock, moved by the test), and
    // another process's runner takes the job over.
    await database.pool.query(
      `UPDATE ${database.tables.jobSchema}.job SET started_on = started_on - interval '1 day'
       WHERE name = $1 AND data->>'version' = $2`,
      [screeningQueue, version],
    );
    const other = kitOnPostgres(database.adapters, { screening: exactList(targets) });
    const runner = await startPostgresJobRunner({
      pool: database.pool,
      kit: other.kit,
      schema: database.schema,
      pollingIntervalSeconds: 0.2,
      maintenanceIntervalSeconds: 1,
      orphanSweepCron: null,
      retentionRedactionCron: null,
    });
    onTestFinished(() => runner.close());
    try {
      const deadline = Date.now() + 30_000;
      while ((await jobStates(version)).join() !== 'completed') {
        if (Date.now() > deadline) throw new Error(`job still ${await jobStates(version)} after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await runner.close();
    }

    for (const [at, clientId] of clientIds.entries()) {
      const client = (await kit.clients.get(manager, clientId))._unsafeUnwrap();
      expect(client.screening?.hits.map((hit) => hit.targetId)).toEqual([targets[at]?.id]);
      const trail = (await kit.audit.list(compliance, clientId, {}))._unsafeUnwrap();
      expect(trail.data.filter((entry) => entry.actor.id === 'screening-monitoring')).toHaveLength(1);
      const events = (
        await kit.events.list(manager, { type: 'client.screening_completed', clientId })
      )._unsafeUnwrap();
      // Its create's screening, and the list change's hit.
      expect(events.data).toHaveLength(2);
    }
  }, 120_000);
});
