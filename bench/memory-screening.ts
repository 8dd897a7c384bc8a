/**
 * Screening's cost, run with `node --import tsx bench/memory-screening.ts` (part of `pnpm bench`):
 * a sanctions list of 100,000 targets in the OpenSanctions `targets.simple.csv` format (generated,
 * 70% persons and 30% companies, each with one alias), loaded streamed; then 1,000 entity creates
 * (BENCH_SCREENED_CLIENTS) on a memory kit screened against it (5 names each: the company, a
 * representative, a director, a natural and a legal UBO; one client in 50 names a listed person),
 * their jobs run on the memory queue. Reported, not a goal (no baseline to compare with): the time
 * per client of the screening jobs (read, the provider's matching, write). BENCH_LIST_TARGETS and
 * BENCH_SCREENED_CLIENTS change the sizes.
 */
import { createControllableClock, exampleEntityPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import { createMemoryKit } from '@onboarding-kit/memory';
import { createListScreeningProvider, loadSanctionsList } from '@onboarding-kit/screening-list';

const targets = Number(process.env.BENCH_LIST_TARGETS ?? 100_000);
// 1,000 clients: about 90 ms each against 100,000 targets since names are ruled out by a bound
// before they are scored (635 ms before, when the default was 100 to keep `pnpm bench` short).
const clients = Number(process.env.BENCH_SCREENED_CLIENTS ?? 1000);

/** A deterministic generator (mulberry32): the same list and names every run. */
const random = (() => {
  let seed = 0x5eed;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
})();
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
// Words start with any of 26 letters, as real names mostly do (the list indexes names by initials).
const syllables =
  'ka lo mir san tov el ri an dre vos ne ul ba shi ton gar har ju pe quo fe wi xa yo zo ce ig ob'.split(' ');
const word = () => {
  const text = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join('');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const personName = () => `${word()} ${word()} ${word().toUpperCase()}`;
const companyName = () =>
  `${word()} ${word()} ${pick(['Holding', 'Trading', 'Maritime', 'Capital'])} ${pick(['S.A.', 'Ltd', 'LLC', 'GmbH'])}`;

const listedPersons: string[] = [];
const header =
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n';
async function* generatedList(): AsyncGenerator<string> {
  yield header;
  for (let i = 0; i < targets; i += 1) {
    const person = random() < 0.7;
    const name = person ? personName() : companyName();
    if (person && listedPersons.length < 1_000) listedPersons.push(name);
    const alias = person ? name.split(' ').reverse().join(' ') : name.toUpperCase();
    yield `bench-${i},${person ? 'Person' : 'Company'},"${name}","${alias}",,ru,,,,,,P-${i},Bench Sanctions List,2024-01-01T00:00:00,2026-01-01T00:00:00,2025-06-01T00:00:00\n`;
  }
}

const loadStarted = performance.now();
const list = (await loadSanctionsList(generatedList()))._unsafeUnwrap();
const loadMs = performance.now() - loadStarted;
const provider = createListScreeningProvider({ list });

const clock = createControllableClock(new Date('2031-01-01T09:00:00.000Z'));
const kit = createMemoryKit({ clock, screening: provider });
const manager: ManagerPrincipal = { kind: 'manager', managerId: 'bench-screening-manager' };
const base = exampleEntityPayload();
for (let c = 0; c < clients; c += 1) {
  const [natural, legal] = base.companyDirectorsAndUbos.ubos;
  if (natural === undefined || legal === undefined) throw new Error('the example entity has two UBOs');
  const [representative] = base.representatives;
  if (representative === undefined) throw new Error('the example entity has a representative');
  const [first = '', last = ''] = personName().split(' ');
  const payload = {
    ...base,
    company: { ...base.company, name: companyName() },
    representatives: [{ ...representative, firstName: first, lastName: last }],
    companyDirectorsAndUbos: {
      directors: base.companyDirectorsAndUbos.directors.map((director) => ({
        ...director,
        name: personName(),
      })),
      ubos: [
        { ...natural, name: c % 50 === 0 ? pick(listedPersons) : personName() },
        { ...legal, name: companyName() },
      ],
    },
  };
  (await kit.clients.createEntity(manager, payload))._unsafeUnwrap();
}

const jobsStarted = performance.now();
const round = await kit.testing.screenDueClients();
const jobsMs = performance.now() - jobsStarted;
if (round.jobs !== clients || round.failed !== 0) throw new Error(`screened ${JSON.stringify(round)}`);

const listed = (await kit.clients.list(manager, { limit: 100 }))._unsafeUnwrap();
const possible = listed.data.filter((client) => client.screening?.status === 'POSSIBLE_MATCH').length;

console.log(
  `list of ${list.size.toLocaleString('en')} targets loaded (streamed) in ${(loadMs / 1000).toFixed(1)} s; ` +
    `${clients.toLocaleString('en')} entity clients, 5 names each (${possible} of the newest 100 POSSIBLE_MATCH)`,
);
console.log(
  `reported screening job per client (memory queue, read + screen + write): ${(jobsMs / clients).toFixed(2)} ms`,
);
