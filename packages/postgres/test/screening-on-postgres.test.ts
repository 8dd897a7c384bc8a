import { randomUUID } from 'node:crypto';
import { type CompliancePrincipal, exampleEntityPayload } from '@onboarding-kit/core';
import {
  type ScreeningMatch,
  type ScreeningProvider,
  screeningUnavailable,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  createJobEngine,
  defaultWebhookJobExpirySeconds,
  screeningQueue,
} from '../src/postgres-job-engine.js';
import { startPostgresJobRunner } from '../src/postgres-job-runner.js';
import { createPostgresScreeningJobQueue } from '../src/postgres-screening-job-queue.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

/** Matches the names it lists exactly; fails the first `failures` calls. */
const exactListProvider = (
  listed: readonly string[],
  failures = 0,
): ScreeningProvider & { calls: number } => {
  const provider = {
    calls: 0,
    screen: (subjects: Parameters<ScreeningProvider['screen']>[0]) => {
      provider.calls += 1;
      if (provider.calls <= failures) return errAsync(screeningUnavailable(new Error('list unreachable')));
      return okAsync(
        subjects
          .filter((subject) => listed.includes(subject.name))
          .map(
            (subject): ScreeningMatch => ({
              field: subject.field,
              name: subject.name,
              listName: 'Test sanctions',
              matchedName: subject.name,
              score: 1,
              targetId: `test-${subject.name}`,
            }),
          ),
      );
    },
  };
  return provider;
};

const screenedKit = (screening: ScreeningProvider) => kitOnPostgres(database.adapters, { screening });

const startRunner = async (kit: Parameters<typeof startPostgresJobRunner>[0]['kit']) => {
  const runner = await startPostgresJobRunner({
    pool: database.pool,
    kit,
    schema: database.schema,
    pollingIntervalSeconds: 0.5,
  });
  onTestFinished(() => runner.close());
  return runner;
};

const screeningColumn = async (clientId: string) =>
  (await database.pool.query(`SELECT screening FROM ${database.tables.clients} WHERE id = $1`, [clientId]))
    .rows[0]?.screening;

const waitForScreening = async (clientId: string, status: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screening = await screeningColumn(clientId);
    if (screening?.status === status) return screening;
    if (Date.now() > deadline) throw new Error(`screening ${JSON.stringify(screening)} never ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('screening through the kit on PostgreSQL', () => {
  it('a create is PENDING, then POSSIBLE_MATCH with the hit on its field once the runner ran the job', async () => {
    const { kit, manager } = screenedKit(exactListProvider(['Martin Holding SARL']));
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    expect(created.screening).toEqual({ status: 'PENDING', screenedAt: null, hits: [] });
    expect(await screeningColumn(created.id)).toEqual({ status: 'PENDING', screenedAt: null, hits: [] });

    await startRunner(kit);
    const screening = await waitForScreening(created.id, 'POSSIBLE_MATCH', 10_000);
    expect(screening.hits).toEqual([
      expect.objectContaining({ field: 'companyDirectorsAndUbos.ubos[1]', name: 'Martin Holding SARL' }),
    ]);
    const events = (await kit.events.list(manager, { type: 'client.screening_completed' }))._unsafeUnwrap();
    expect(events.data).toHaveLength(1);

    // Approval waits for compliance's decision on the hit, which is audited.
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr().type).toBe(
      'ScreeningUnresolved',
    );
    const hitId = screening.hits[0].id as string;
    const resolved = (
      await kit.screening.resolveHit(compliance, created.id, hitId, {
        decision: 'DISMISSED',
        reason: 'Other SARL',
      })
    )._unsafeUnwrap();
    expect(resolved.screening?.hits[0]?.resolution).toMatchObject({
      decision: 'DISMISSED',
      actor: 'officer-1',
    });
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap()).toEqual(resolved);
    const audit = (await kit.audit.list(compliance, created.id, {}))._unsafeUnwrap();
    expect(audit.data.map((entry) => entry.action)).toEqual([
      'create',
      'screening-result',
      'screening-resolution',
    ]);
    expect((await kit.compliance.approve(compliance, created.id)).isOk()).toBe(true);
  });

  it('a clean name is CLEAR; a failing provider leaves ERROR and the engine retries it to CLEAR', async () => {
    const clean = screenedKit(exactListProvider([]));
    const cleanClient = (
      await clean.kit.clients.createEntity(clean.manager, exampleEntityPayload())
    )._unsafeUnwrap();
    const cleanRunner = await startRunner(clean.kit);
    await waitForScreening(cleanClient.id, 'CLEAR', 10_000);
    // One runner at a time on the shared queue: the next job is the failing kit's to run.
    await cleanRunner.close();

    const provider = exactListProvider([], 1);
    const failing = screenedKit(provider);
    const created = (
      await failing.kit.clients.createEntity(failing.manager, exampleEntityPayload())
    )._unsafeUnwrap();
    await startRunner(failing.kit);
    await waitForScreening(created.id, 'ERROR', 10_000);
    expect((await failing.kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      screeningStatus: 'ERROR',
    });
    await waitForScreening(created.id, 'CLEAR', 20_000);
    expect(provider.calls).toBe(2);
  });

  it('a hit confirmed after the approval holds the terms back; decisions are events; the trail names hits', async () => {
    const { kit, manager } = screenedKit(exactListProvider(['Hélène Martin']));
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    (await kit.screening.runJob({ type: 'screen-client', clientId: created.id }))._unsafeUnwrap();
    const hits = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
    const [hit] = hits;
    if (hit === undefined) expect.fail('a hit');
    for (const each of hits) {
      (
        await kit.screening.resolveHit(compliance, created.id, each.id, {
          decision: 'DISMISSED',
          reason: 'No',
        })
      )._unsafeUnwrap();
    }
    (await kit.compliance.approve(compliance, created.id))._unsafeUnwrap();
    (
      await kit.screening.resolveHit(compliance, created.id, hit.id, { decision: 'CONFIRMED', reason: 'Yes' })
    )._unsafeUnwrap();
    expect((await kit.compliance.markTermsSigned(compliance, created.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      trigger: 'SIGN_TERMS',
    });

    const events = await database.pool.query(
      `SELECT body FROM ${database.tables.events} WHERE client_id = $1 AND body->>'type' = 'client.screening_hit_resolved'
       ORDER BY position`,
      [created.id],
    );
    expect(events.rows.map((row) => row.body.data.hitId)).toEqual([...hits.map((each) => each.id), hit.id]);
    const audit = await database.pool.query(
      `SELECT action, actor_kind, actor_id, changes FROM ${database.tables.auditEntries}
       WHERE client_id = $1 ORDER BY position`,
      [created.id],
    );
    const result = audit.rows.find((row) => row.action === 'screening-result');
    expect(result).toMatchObject({ actor_kind: 'system', actor_id: 'screening' });
    expect(result?.changes.map((change: { path: string }) => change.path)).toEqual([
      'screening.status',
      'screening.screenedAt',
      ...hits.map((each) => `screening.hits[?@.id=='${each.id}']`),
    ]);
    const confirmation = audit.rows.at(-1);
    expect(confirmation?.changes).toEqual([
      {
        path: `screening.hits[?@.id=='${hit.id}']`,
        before: expect.objectContaining({ id: hit.id, matchedName: 'Hélène Martin' }),
        after: expect.objectContaining({
          id: hit.id,
          listName: 'Test sanctions',
          matchedName: 'Hélène Martin',
          resolution: expect.objectContaining({ decision: 'CONFIRMED' }),
        }),
      },
    ]);
  });

  it('a confirmation racing an approval, both at once: whichever commits first, the terms are refused and the hit stays CONFIRMED', async () => {
    const { kit, manager } = screenedKit(exactListProvider(['Hélène Martin']));
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
        (await kit.screening.runJob({ type: 'screen-client', clientId: created.id }))._unsafeUnwrap();
        const hits = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
        for (const each of hits) {
          (
            await kit.screening.resolveHit(compliance, created.id, each.id, {
              decision: 'DISMISSED',
              reason: 'No',
            })
          )._unsafeUnwrap();
        }
        return { id: created.id, hit: hits[0]?.id ?? '' };
      }),
    );
    // Every approval and every confirmation sent at the same moment, on one pool.
    const raced = await Promise.all(
      clients.flatMap(({ id, hit }) => [
        kit.compliance.approve(compliance, id),
        kit.screening.resolveHit(compliance, id, hit, { decision: 'CONFIRMED', reason: 'The listed party' }),
      ]),
    );
    for (const [at, { id, hit }] of clients.entries()) {
      const [approved, confirmed] = [raced[2 * at], raced[2 * at + 1]];
      // The confirmation is always recorded (after an approval too); the approval only if it came first.
      expect(confirmed?.isOk()).toBe(true);
      if (approved?.isErr())
        expect(approved.error).toMatchObject({ type: 'ScreeningUnresolved', trigger: 'APPROVE' });
      const client = (await kit.clients.get(manager, id))._unsafeUnwrap();
      expect(client.status).toBe(
        approved?.isOk() ? 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' : 'ONBOARDING_UNDER_REVIEW',
      );
      expect(client.screening?.hits.find((each) => each.id === hit)?.resolution?.decision).toBe('CONFIRMED');
      const signed = await kit.compliance.markTermsSigned(compliance, id);
      if (approved?.isOk()) expect(signed._unsafeUnwrapErr()).toMatchObject({ type: 'ScreeningUnresolved' });
      else expect(signed._unsafeUnwrapErr()).toMatchObject({ type: 'InvalidStatus' });
      expect((await kit.clients.get(manager, id))._unsafeUnwrap().status).not.toBe('VERIFIED');
    }
  });

  it('screens a client deleted before its screening ran, and refuses resolutions once it is deleted', async () => {
    const { kit, manager } = screenedKit(exactListProvider(['Hélène Martin']));
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    (await kit.clients.delete(manager, created.id))._unsafeUnwrap();
    expect(
      (await kit.screening.runJob({ type: 'screen-client', clientId: created.id }))._unsafeUnwrap(),
    ).toMatchObject({ screened: true });
    const screening = await screeningColumn(created.id);
    expect(screening.status).toBe('POSSIBLE_MATCH');
    const refused = await kit.screening.resolveHit(compliance, created.id, screening.hits[0].id, {
      decision: 'DISMISSED',
      reason: 'x',
    });
    expect(refused._unsafeUnwrapErr()).toMatchObject({ type: 'InvalidStatus', currentStatus: 'DELETED' });
    expect((await screeningColumn(created.id)).hits[0].resolution).toBeNull();
  });

  it('a resubmission sends its screening job inside its transaction', async () => {
    const { kit, manager } = screenedKit(exactListProvider([]));
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    (await kit.compliance.requestResubmission(compliance, created.id, { reason: 'Again' }))._unsafeUnwrap();
    (await kit.clients.resubmitEntity(manager, created.id, exampleEntityPayload()))._unsafeUnwrap();
    const jobs = await database.pool.query(
      `SELECT data FROM ${database.schema}_jobs.job WHERE name = 'onboarding-kit-screening' AND data->>'clientId' = $1`,
      [created.id],
    );
    expect(jobs.rows).toHaveLength(2);
  });

  it("the create's screening job row is the row pg-boss's own send writes (the resubmission's path)", async () => {
    const { kit, manager } = screenedKit(exactListProvider([]));
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    const boss = createJobEngine(database.pool, database.tables.jobSchema);
    const sentFor = randomUUID();
    (
      await createPostgresScreeningJobQueue(database.pool, database.tables, {
        boss,
        jobExpirySeconds: defaultWebhookJobExpirySeconds,
        managerTurns: new Map(),
      }).enqueueScreening(sentFor)
    )._unsafeUnwrap();
    const { rows } = await database.pool.query(
      `SELECT data, name, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key,
         singleton_on, expire_in::text, keep_until - start_after AS kept_for, dead_letter, policy,
         start_after <= now() AS started, output
       FROM ${database.tables.jobSchema}.job WHERE name = $1 AND data->>'clientId' = ANY($2::text[])`,
      [screeningQueue, [created.id, sentFor]],
    );
    const byCreate = rows.find((row) => row.data.clientId === created.id);
    const bySend = rows.find((row) => row.data.clientId === sentFor);
    expect(byCreate?.data).toEqual({ type: 'screen-client', clientId: created.id });
    expect(bySend?.retry_backoff).toBe(true);
    expect({ ...byCreate, data: null }).toEqual({ ...bySend, data: null });
  });
});
