/**
 * Ongoing screening on PostgreSQL, run with `node --import tsx bench/postgres-screening-monitoring.ts`
 * (part of `pnpm bench`). The goal: 100,000 clients × a change of 1,000 targets re-screened
 * in ≤ 10 s.
 *
 * A sanctions list of BENCH_LIST_TARGETS (default 100,000) generated targets, and its next version
 * with 1,000 of them changed (BENCH_CHANGED_TARGETS: half renamed, half added; 1 in 20 named
 * exactly as a client), both loaded streamed and diffed with `listVersionChanges`. BENCH_CLIENTS
 * (default 100,000) clients already screened (three in four individuals: one name; one in four
 * entities: the company, a director and two UBOs), their rows cloned from two clients the kit
 * created and their names in the index (`screened_names`) as the kit writes them, under the list
 * provider's keys (`listNameKeys`). Names are drawn from 400 first names and 30,000 surnames, both
 * skewed (a few names are very common, as in life), so a changed target shares words with many
 * clients.
 *
 * Measured: from `kit.screening.listChanged` to the last monitoring job completed, on one job
 * runner (`startPostgresJobRunner`, defaults) in this process; against the baseline of the same
 * run: every screened name scored against the changed targets (the list provider scoped to all of
 * them), timed on a sample of names and scaled to all.
 * Uses DATABASE_URL when set, otherwise an embedded PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import {
  createOnboardingKit,
  exampleEntityPayload,
  exampleIndividualPayload,
  type ManagerPrincipal,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import type { ScreeningProvider, ScreeningSubject } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import {
  createPostgresAdapters,
  migrate,
  type PostgresJobRunner,
  startPostgresJobRunner,
} from '@onboarding-kit/postgres';
import {
  createListScreeningProvider,
  listNameKeys,
  listVersionChanges,
  loadSanctionsList,
  type SanctionsList,
} from '@onboarding-kit/screening-list';
import { openTestDatabase } from '../packages/postgres/test-support/embedded-postgres-server.js';
import { createPool, type Pool } from '../packages/postgres/test-support/postgres-pool.js';
import { createGoalLedger, loadAverage, printPostgresBenchHeader } from './bench-report.js';

const listTargets = Number(process.env.BENCH_LIST_TARGETS ?? 100_000);
const changedTargets = Number(process.env.BENCH_CHANGED_TARGETS ?? 1_000);
const clientCount = Number(process.env.BENCH_CLIENTS ?? 100_000);
const baselineSample = 1_000;
const schema = 'bench_monitoring';
const GOAL_SECONDS = 10;

const { checkGoal, finish } = createGoalLedger();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A deterministic generator (mulberry32): the same names every run. */
const random = (() => {
  let seed = 0x39;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
})();
const syllables =
  'ka lo mir san tov el ri an dre vos ne ul ba shi ton gar har ju pe quo fe wi xa yo zo ce ig ob'.split(' ');
const word = () => {
  const text = Array.from({ length: 2 + Math.floor(random() * 2) }, () => {
    return syllables[Math.floor(random() * syllables.length)] as string;
  }).join('');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const firstNames = Array.from({ length: 400 }, word);
const surnames = Array.from({ length: 30_000 }, word);
/** Skewed: the first items of a pool are drawn far more often than the last. */
const skewed = <T>(pool: readonly T[], power: number): T =>
  pool[Math.floor(random() ** power * pool.length)] as T;
const personName = () => `${skewed(firstNames, 2)} ${skewed(surnames, 1.5)}`;
const companyName = () =>
  `${skewed(surnames, 1.5)} ${word()} ${['Holding', 'Trading', 'Maritime', 'Capital'][Math.floor(random() * 4)]}`;

// --- The two list versions -----------------------------------------------------------------------
type Target = { id: string; schema: 'Person' | 'Company'; name: string; alias: string };
const newTarget = (id: string, named?: { name: string; person: boolean }): Target => {
  const person = named?.person ?? random() < 0.7;
  const name = named?.name ?? (person ? personName() : companyName());
  return { id, schema: person ? 'Person' : 'Company', name, alias: name.toUpperCase() };
};
const header = 'id,schema,name,aliases,dataset\n';
async function* csvOf(targets: readonly Target[]): AsyncGenerator<string> {
  yield header;
  for (const t of targets) yield `${t.id},${t.schema},"${t.name}","${t.alias}",Bench Sanctions List\n`;
}

// --- The clients ---------------------------------------------------------------------------------
type BenchClient = { id: string; managerId: string } & (
  | { type: 'INDIVIDUAL'; firstName: string; lastName: string }
  | { type: 'ENTITY'; company: string; director: string; ubos: [string, string] }
);
const managers = Array.from({ length: 200 }, () => randomUUID());
const clients: BenchClient[] = Array.from({ length: clientCount }, (): BenchClient => {
  const id = randomUUID();
  const managerId = managers[Math.floor(random() * managers.length)] as string;
  if (random() < 0.75) {
    const [firstName = '', lastName = ''] = personName().split(' ');
    return { id, managerId, type: 'INDIVIDUAL', firstName, lastName };
  }
  return {
    id,
    managerId,
    type: 'ENTITY',
    company: companyName(),
    director: personName(),
    ubos: [personName(), companyName()],
  };
});

/** A client's names as the kit screens them (screeningSubjectsOf) for the clones below. */
const subjectsOf = (client: BenchClient, country: string): ScreeningSubject[] =>
  client.type === 'INDIVIDUAL'
    ? [{ field: 'profile', name: `${client.firstName} ${client.lastName}`, kind: 'PERSON', country }]
    : [
        { field: 'company', name: client.company, kind: 'COMPANY', country },
        { field: 'companyDirectorsAndUbos.directors[0]', name: client.director, kind: 'PERSON' },
        { field: 'companyDirectorsAndUbos.ubos[0]', name: client.ubos[0], kind: 'PERSON' },
        { field: 'companyDirectorsAndUbos.ubos[1]', name: client.ubos[1], kind: 'COMPANY' },
      ];

const time = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
};

const main = async () => {
  const database = await openTestDatabase();
  const pool: Pool = createPool(database.connectionString, 16);
  let runner: PostgresJobRunner | null = null;
  try {
    (await migrate(pool, { schema }))._unsafeUnwrap();
    await printPostgresBenchHeader('Screening monitoring bench', pool);

    // Two list versions: the second renames half of the changes and adds the other half.
    const first = Array.from({ length: listTargets }, (_, i) => newTarget(`bench-${i}`));
    const second = [...first];
    const hitsPlanned: string[] = [];
    for (let c = 0; c < changedTargets; c += 1) {
      // One change in 20 names a client exactly: those are the hits to find.
      let name: { name: string; person: boolean } | undefined;
      if (c % 20 === 0) {
        const client = clients[Math.floor(random() * clients.length)] as BenchClient;
        name =
          client.type === 'INDIVIDUAL'
            ? { name: `${client.firstName} ${client.lastName}`, person: true }
            : { name: client.company, person: false };
        hitsPlanned.push(client.id);
      }
      if (c % 2 === 0) second[c] = { ...newTarget(`bench-${c}`, name) };
      else second.push(newTarget(`bench-new-${c}`, name));
    }
    const [v1, loadMs] = await time(async () => (await loadSanctionsList(csvOf(first)))._unsafeUnwrap());
    const v2 = (await loadSanctionsList(csvOf(second)))._unsafeUnwrap();
    const [changes, diffMs] = await time(async () => listVersionChanges(v1, v2));
    console.log(
      `lists: ${listTargets.toLocaleString('en')} targets loaded in ${(loadMs / 1000).toFixed(1)} s; ` +
        `listVersionChanges: ${changes.length} changed targets in ${diffMs.toFixed(0)} ms`,
    );

    let current: SanctionsList = v1;
    const listProvider = createListScreeningProvider({ list: () => current });
    let scoredSubjects = 0;
    // Where a run's time goes: the provider's scoped calls (scoring, one name a turn of the event loop).
    const scoring = { ms: 0, calls: 0 };
    const provider: ScreeningProvider = {
      nameKeys: listNameKeys,
      screen: (subjects, scope) => {
        if (scope === undefined) return listProvider.screen(subjects, scope);
        scoredSubjects += subjects.length;
        const at = performance.now();
        return listProvider.screen(subjects, scope).map((matches) => {
          scoring.ms += performance.now() - at;
          scoring.calls += 1;
          return matches;
        });
      },
    };
    const memory = createMemoryAdapters();
    const adapters = createPostgresAdapters({ pool, schema });
    // Where a run's time goes: the index's candidate pages, and the transactions that record hits.
    const spent = { candidatesMs: 0, candidatePages: 0, transactionsMs: 0, transactions: 0 };
    const kit = createOnboardingKit({
      ...adapters,
      screenedNames: {
        ...adapters.screenedNames,
        candidates: (query) => {
          const at = performance.now();
          return adapters.screenedNames.candidates(query).map((rows) => {
            spent.candidatesMs += performance.now() - at;
            spent.candidatePages += 1;
            return rows;
          });
        },
      },
      unitOfWork: {
        transaction: (work) => {
          const at = performance.now();
          return adapters.unitOfWork.transaction(work).map((value) => {
            spent.transactionsMs += performance.now() - at;
            spent.transactions += 1;
            return value;
          });
        },
      },
      documentStorage: memory.documentStorage,
      clock: systemClock,
      ids: randomUuids,
      screening: provider,
    });

    // Two template clients made by the kit (screened CLEAR), cloned into the bench's clients.
    const manager: ManagerPrincipal = { kind: 'manager', managerId: 'bench-template' };
    memory.testing.putTemporaryFile('manager:bench-template', 'passport.pdf', new Uint8Array(8));
    const individual = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrap();
    const entity = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    const clear = { status: 'CLEAR', screenedAt: new Date().toISOString(), hits: [] };
    const seedStarted = performance.now();
    for (let start = 0; start < clients.length; start += 5_000) {
      const chunk = clients.slice(start, start + 5_000);
      const rows = chunk.map((client) => ({
        id: client.id,
        manager_id: client.managerId,
        template: client.type === 'INDIVIDUAL' ? individual.id : entity.id,
        patch:
          client.type === 'INDIVIDUAL'
            ? { individual_profile: { firstName: client.firstName, lastName: client.lastName } }
            : {
                company: { name: client.company },
                company_directors_and_ubos: {
                  directors: [{ name: client.director }],
                  ubos: [{ name: client.ubos[0] }, { name: client.ubos[1] }],
                },
              },
      }));
      // Each clone is its template with the names patched in (the other fields as the kit stored them).
      await pool.query(
        `INSERT INTO ${schema}.clients
         SELECT (jsonb_populate_record(NULL::${schema}.clients, to_jsonb(t) || jsonb_build_object(
           'id', n.id, 'manager_id', n.manager_id, 'screening', $2::jsonb,
           'individual_profile', CASE WHEN t.individual_profile IS NULL THEN NULL
             ELSE t.individual_profile || (n.patch -> 'individual_profile') END,
           'company', CASE WHEN t.company IS NULL THEN NULL ELSE t.company || (n.patch -> 'company') END,
           'company_directors_and_ubos', CASE WHEN t.company_directors_and_ubos IS NULL THEN NULL ELSE jsonb_build_object(
             'directors', jsonb_build_array(t.company_directors_and_ubos -> 'directors' -> 0
               || (n.patch -> 'company_directors_and_ubos' -> 'directors' -> 0)),
             'ubos', jsonb_build_array(
               t.company_directors_and_ubos -> 'ubos' -> 0 || (n.patch -> 'company_directors_and_ubos' -> 'ubos' -> 0),
               t.company_directors_and_ubos -> 'ubos' -> 1 || (n.patch -> 'company_directors_and_ubos' -> 'ubos' -> 1)))
           END))).*
         FROM jsonb_to_recordset($1::jsonb) AS n(id uuid, manager_id text, template uuid, patch jsonb)
         JOIN ${schema}.clients t ON t.id = n.template`,
        [JSON.stringify(rows), JSON.stringify(clear)],
      );
      const names = chunk.flatMap((client) =>
        subjectsOf(client, 'FR').map((subject) => ({
          client_id: client.id,
          ...subject,
          country: subject.country ?? null,
          keys: listNameKeys(subject.name),
        })),
      );
      await pool.query(
        `INSERT INTO ${schema}.screened_names (client_id, field, name, kind, country, keys)
         SELECT client_id, field, name, kind, country, keys
         FROM json_to_recordset($1::json) AS n(client_id uuid, field text, name text, kind text, country text, keys text[])`,
        [JSON.stringify(names)],
      );
    }
    // The templates' own screenings are not part of the measure.
    await pool.query(`DELETE FROM ${schema}_jobs.job WHERE name = 'onboarding-kit-screening'`);
    await pool.query(`ANALYZE ${schema}.clients; ANALYZE ${schema}.screened_names`);
    const indexed = Number(
      (await pool.query(`SELECT count(*) FROM ${schema}.screened_names`)).rows[0]?.count,
    );
    console.log(
      `clients: ${clientCount.toLocaleString('en')} seeded (${indexed.toLocaleString('en')} screened names) in ` +
        `${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    // The baseline: every screened name against every changed target, timed on a sample.
    const everyChanged = { targetIds: changes.map((target) => target.id) };
    current = v2;
    const sample = clients.slice(0, baselineSample).flatMap((client) => subjectsOf(client, 'FR'));
    const [, sampleMs] = await time(async () =>
      (await listProvider.screen(sample, everyChanged))._unsafeUnwrap(),
    );
    const baselineSeconds = ((sampleMs / sample.length) * indexed) / 1000;
    console.log(
      `baseline (no index): ${sample.length} names against the ${changes.length} changed targets in ` +
        `${sampleMs.toFixed(0)} ms; all ${indexed.toLocaleString('en')} names: ~${baselineSeconds.toFixed(1)} s`,
    );

    // The run: the host hands the kit the new version; one job runner works it.
    runner = await startPostgresJobRunner({
      pool,
      kit,
      schema,
      orphanSweepCron: null,
      retentionRedactionCron: null,
    });
    const version = `bench-${randomUUID()}`;
    Object.assign(spent, { candidatesMs: 0, candidatePages: 0, transactionsMs: 0, transactions: 0 });
    Object.assign(scoring, { ms: 0, calls: 0 });
    const started = performance.now();
    const receipt = (await kit.screening.listChanged({ version, changedTargets: changes }))._unsafeUnwrap();
    for (;;) {
      const left = await pool.query(
        `SELECT count(*) FILTER (WHERE state IN ('created', 'retry', 'active')) AS open,
                count(*) FILTER (WHERE state = 'failed') AS failed
         FROM ${schema}_jobs.job WHERE name = 'onboarding-kit-screening' AND data->>'version' = $1`,
        [version],
      );
      if (Number(left.rows[0]?.open) === 0) {
        if (Number(left.rows[0]?.failed) > 0) throw new Error('a monitoring job failed');
        break;
      }
      await pause(20);
    }
    const seconds = (performance.now() - started) / 1000;
    const hits = await pool.query(
      `SELECT count(DISTINCT client_id) AS clients, count(*) AS entries FROM ${schema}.audit_entries
       WHERE actor_kind = 'system' AND actor_id = 'screening-monitoring'`,
    );
    const found = new Set(
      (
        await pool.query(
          `SELECT DISTINCT client_id FROM ${schema}.audit_entries WHERE actor_id = 'screening-monitoring'`,
        )
      ).rows.map((row) => row.client_id as string),
    );
    const missed = hitsPlanned.filter((id) => !found.has(id));
    console.log(
      `monitoring: ${receipt.batches} jobs of up to 100 targets; ${scoredSubjects.toLocaleString('en')} candidate ` +
        `(name, target) screenings; ${hits.rows[0]?.clients} clients with new hits ` +
        `(${hitsPlanned.length} planned exact hits, ${missed.length} missed); ${seconds.toFixed(2)} s ` +
        `(${(baselineSeconds / seconds).toFixed(1)}x faster than the baseline)`,
    );
    console.log(
      `  of which: ${spent.candidatePages} candidate pages read in ${(spent.candidatesMs / 1000).toFixed(2)} s; ` +
        `${spent.transactions} transactions in ${(spent.transactionsMs / 1000).toFixed(2)} s (summed, 4 at once); ` +
        `${scoring.calls} scoped provider calls in ${(scoring.ms / 1000).toFixed(2)} s (summed)`,
    );
    if (missed.length > 0) throw new Error(`planned hits not found: ${missed.length}`);
    checkGoal(
      `pg.monitoring.${clientCount / 1000}k-clients-${changes.length}-targets`,
      `${seconds.toFixed(2)} s`,
      `<= ${GOAL_SECONDS} s`,
      seconds <= GOAL_SECONDS,
    );
    console.log(`\nload average (1, 5, 15 min) at the end: ${loadAverage()}`);
  } finally {
    await runner?.close();
    await pool.end();
    await database.close();
  }
  finish();
};

await main();
