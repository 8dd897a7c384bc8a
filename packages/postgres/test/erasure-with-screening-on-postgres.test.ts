import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type CompliancePrincipal, exampleIndividualPayload } from '@onboarding-kit/core';
import type {
  ScreeningJob,
  WebhookJob,
  WebhookRequest,
  WebhookTransport,
} from '@onboarding-kit/core/adapter';
import {
  createListScreeningProvider,
  loadSanctionsList,
  type SanctionsList,
} from '@onboarding-kit/screening-list';
import { okAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { screeningQueue, webhookQueue } from '../src/postgres-job-engine.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { everyRowAsText, type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * Erasure with screening on (decisions §11, §12), on PostgreSQL: a listed client with a date of
 * birth (its screened-name row, its hits' birth-date evidence, a dismissal's reason, its events,
 * audit entries, stored answers) is deleted and redacted while a list change's monitoring job and
 * the webhook jobs of its events are still queued; they run after the redaction. Then neither its
 * name, its date of birth nor the marker of its address is in any row of the kit's schema or of its
 * job schema (each row cast to text), nor in any webhook body sent after the redaction.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-erasure' };
const ok = <T>(value: T): T => value;
const fail = (error: unknown): never => {
  throw new Error(`unexpected failure: ${JSON.stringify(error)}`);
};

const csv = (rows: readonly string[]) =>
  ['id,schema,name,aliases,birth_date,countries,dataset', ...rows, ...otherTargets].join('\n');
const otherTargets = Array.from(
  { length: 50 },
  (_, at) => `o-${at},Person,Person${at} Other${at},,,,Erasure List`,
);

test('after redaction, jobs queued before it leave no name, date of birth or marker in any table or webhook body', async () => {
  const surname = `Zvyagintsev${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 6)}`;
  const first = 'Radomir';
  const dateOfBirth = '1923-06-17';
  const marker = `canary-${randomUUID()}`;
  const load = async (rows: readonly string[]) =>
    (await loadSanctionsList(Readable.from([csv(rows)])))._unsafeUnwrap();
  let list: SanctionsList = await load([`t-1,Person,${first} ${surname},,1961-04-12,ru,Erasure List`]);
  const sent: WebhookRequest[] = [];
  const webhookTransport: WebhookTransport = {
    send: (request) => {
      sent.push(request);
      return okAsync({ type: 'answered', statusCode: 204, retryAfter: null });
    },
  };
  const { kit, manager, upload } = kitOnPostgres(database.adapters, {
    screening: createListScreeningProvider({ list: () => list }),
    webhookTransport,
  });
  const endpoint = (
    await kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' })
  ).match(ok, fail);

  const jobsOf = async <T>(queue: string): Promise<T[]> => {
    const rows = await database.pool.query<{ data: T }>(
      `DELETE FROM ${pg.escapeIdentifier(database.tables.jobSchema)}.job WHERE name = $1 AND state = 'created' RETURNING data`,
      [queue],
    );
    return rows.rows.map(({ data }) => data);
  };
  const runScreeningJobs = async () => {
    const jobs = await jobsOf<ScreeningJob>(screeningQueue);
    for (const job of jobs) (await kit.screening.runJob(job)).match(ok, fail);
    return jobs.map(({ type }) => type);
  };
  const runWebhookJobs = async () => {
    for (const job of await jobsOf<WebhookJob>(webhookQueue))
      (await kit.webhooks.runJob(job)).match(ok, fail);
  };

  upload('passport.pdf');
  const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
  const claim = (
    await kit.idempotency.claim({ scope: 'erasure', owner: 'manager:erasure', key: 'create-1', body: {} })
  ).match(ok, fail);
  if (claim.type !== 'Claimed') throw new Error('expected a claim');
  const created = (
    await kit.clients.createIndividual(
      manager,
      {
        ...payload,
        profile: { ...payload.profile, firstName: first, lastName: surname, dateOfBirth, address: marker },
      },
      { claim: claim.ref },
    )
  ).match(ok, fail);
  await runScreeningJobs();
  const screened = (await kit.clients.get(manager, created.id)).match(ok, fail);
  const [hit] = screened.screening?.hits ?? [];
  expect(hit?.explanation?.birthDate).toEqual({
    subject: dateOfBirth,
    listed: ['1961-04-12'],
    outcome: 'MISMATCH',
  });
  (
    await kit.screening.resolveHit(compliance, created.id, hit?.id ?? '', {
      decision: 'DISMISSED',
      reason: `Born ${dateOfBirth}, ${marker}`,
    })
  ).match(ok, fail);
  await runWebhookJobs();
  expect(sent.some((request) => request.body.includes(dateOfBirth))).toBe(true);

  // A new list version naming the client's name (an alias with the client's year): its monitoring
  // job, and the webhook jobs of the deletion, are queued before the erasure and run after it.
  const version = await load([
    `t-1,Person,${first} ${surname},,1961-04-12,ru,Erasure List`,
    `t-2,Person,${surname} ${first},,1923,ru,Erasure List`,
  ]);
  list = version;
  (
    await kit.screening.listChanged({
      version: 'v2',
      changedTargets: [{ id: 't-2', names: [`${surname} ${first}`] }],
    })
  ).match(ok, fail);
  (await kit.clients.delete(manager, created.id)).match(ok, fail);

  const dump = () => everyRowAsText(database);
  const leaks = (text: string) =>
    text.split('\n').filter((line) => [surname, dateOfBirth, marker].some((value) => line.includes(value)));
  // Alive before: every search can see each value.
  const before = await dump();
  for (const value of [surname, dateOfBirth, marker]) expect(before).toContain(value);
  expect(before).toMatch(/screened_names: .*1923-06-17/);
  // pg-boss's own table was searched too: the queued jobs are in it.
  expect(before).toMatch(/^job: /m);

  (await kit.redaction.redact(compliance, created.id)).match(ok, fail);
  const sentBefore = sent.length;
  expect(await runScreeningJobs()).toContain('monitor-list-change');
  await runWebhookJobs();
  const after = (await kit.clients.get(manager, created.id)).match(ok, fail);
  expect(after).toMatchObject({ status: 'DELETED', individualProfile: null, screening: null });
  expect(sent.length).toBeGreaterThan(sentBefore);
  expect(
    leaks(
      sent
        .slice(sentBefore)
        .map((request) => request.body)
        .join('\n'),
    ),
  ).toEqual([]);
  expect(leaks(await dump())).toEqual([]);
  const answers = [
    (await kit.events.list(manager, { limit: '100' })).match(ok, fail),
    (await kit.audit.list(compliance, created.id, {})).match(ok, fail),
    (await kit.webhooks.listDeliveries(manager, endpoint.id, { limit: '100' })).match(ok, fail),
  ];
  expect(leaks(JSON.stringify(answers))).toEqual([]);
});
