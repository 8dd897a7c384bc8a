/**
 * Prints the matcher's precision and recall on the committed labelled pairs (`name-pairs.tsv`, the
 * set it was tuned on, and `held-out-pairs.tsv`, kinds of variation it was not tuned on) and
 * its alerts per 1,000 clean clients (`clean-names.txt`) against a generated list of 100,000
 * targets (EVAL_LIST_TARGETS), beside the matcher it replaced (fuzzball token_sort_ratio ≥ 90,
 * bench/baseline):
 *
 *     node --import tsx packages/screening-list/eval/evaluate.ts
 *
 * A pair is found when screening its screened name against a list holding every listed name of the
 * set (and 20,000 generated names, so that words weigh as on a real list) answers the listed target
 * at the default threshold. A clean name identical (normalized) to a listed one is left out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSanctionsList as loadBaseline } from '../../../bench/baseline/fuzzball-sanctions-list.js';
import { normalizeName } from '../src/normalize-name.js';
import { loadSanctionsList } from '../src/sanctions-list.js';
import {
  birthDateCell,
  clientBirthDates,
  listedBirthDates,
  matchedClientBirthDates,
} from './generated-birth-dates.js';
import { companyName, cultures, personName, pick, seededRandom } from './multicultural-names.js';

type Matcher = {
  readonly name: string;
  load(rows: AsyncIterable<string>): Promise<{
    match(
      screened: { kind: 'person' | 'organization'; name: string; birthDate?: string },
      threshold?: number,
      targetIds?: readonly string[],
    ): readonly {
      targetId: string;
      matchedName: string;
      score: number;
      explanation?: {
        summary: string;
        tokens: readonly { kind: string }[];
        unmatchedSubject: readonly string[];
        unmatchedListed: readonly string[];
        birthDate?: { readonly outcome: string };
      };
    }[];
  }>;
};
const matchers: Matcher[] = [
  {
    name: 'token matcher (this package)',
    load: async (rows) => (await loadSanctionsList(rows))._unsafeUnwrap(),
  },
  { name: 'baseline (fuzzball token_sort_ratio ≥ 90)', load: async (rows) => await loadBaseline(rows) },
];

const directory = fileURLToPath(new URL('.', import.meta.url));
type LabelledPair = {
  readonly kind: 'person' | 'company';
  readonly listed: string;
  readonly screened: string;
  readonly match: boolean;
  readonly variation: string;
};
const readPairs = (file: string): LabelledPair[] =>
  readFileSync(`${directory}${file}`, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [kind, listed, screened, match, variation] = line.split('\t') as [
        string,
        string,
        string,
        string,
        string,
      ];
      return { kind: kind as 'person' | 'company', listed, screened, match: match === '1', variation };
    });
/**
 * The set the matcher was tuned on, and a held-out set of other kinds of variation
 * (`generate-held-out-pairs.ts`) it was not: both are reported, each on its own.
 */
const heldOutFile = process.env.EVAL_HELD_OUT_FILE ?? 'held-out-pairs.tsv';
const sets = [
  { name: 'tuned set (name-pairs.tsv)', pairs: readPairs('name-pairs.tsv') },
  {
    name: `held-out set (${heldOutFile})`,
    pairs: readPairs(heldOutFile),
  },
];
const pairs = sets.flatMap((set) => set.pairs);
/**
 * The clean clients (`clean-names.txt`, drawn from the cultures of the list), and real names of
 * other cultures that a reading made for one culture would rewrite (`clean-names-other-cultures.txt`:
 * `Dina Lee` has the shape of a Korean name, `Louise García` has `ou`, `Ken Tse` looks like
 * Wade-Giles): each reported on its own.
 */
const cleanSets = [
  { name: 'clean clients', file: 'clean-names.txt' },
  { name: 'clean clients of other cultures a reading may rewrite', file: 'clean-names-other-cultures.txt' },
].map((set) => ({ ...set, names: readFileSync(`${directory}${set.file}`, 'utf8').trim().split('\n') }));
const listTargets = Number(process.env.EVAL_LIST_TARGETS ?? 100_000);
/** How many misses and look-alikes flagged, and clean alerts, to print (EVAL_SHOWN_EXAMPLES, EVAL_SHOWN_ALERTS). */
const shownExamples = Number(process.env.EVAL_SHOWN_EXAMPLES ?? 12);

const header = 'id,schema,name,aliases,birth_date,countries,dataset\n';
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
const schemaOf = (kind: string) => (kind === 'person' ? 'Person' : 'Company');

/** The generated background: persons (a fifth written in their own script, with a Latin alias) and companies. */
async function* generated(count: number, seed: number): AsyncGenerator<string> {
  const random = seededRandom(seed);
  // Drawn apart from the names, which stay those drawn before the list had birth dates.
  const birthDates = listedBirthDates(seed);
  for (let i = 0; i < count; i += 1) {
    if (random() < 0.7) {
      const culture = pick(random, cultures);
      const native = random() < 0.2;
      const name = personName(random, culture, native ? 'native' : 'latin');
      yield `g-${i},Person,${quoted(name)},,${birthDateCell(birthDates())},,Generated\n`;
    } else {
      yield `g-${i},Company,${quoted(companyName(random))},,,,Generated\n`;
    }
  }
}

/** Each listed name of the sets, a target of its own; a listed person with the birth dates a list gives. */
const listedNames = new Map<string, { id: string; kind: string; birthDates: readonly string[] }>();
const pairBirthDates = listedBirthDates(0x9a15);
for (const pair of pairs) {
  const key = `${pair.kind}\t${pair.listed}`;
  if (!listedNames.has(key))
    listedNames.set(key, {
      id: `pair-${listedNames.size}`,
      kind: pair.kind,
      birthDates: pair.kind === 'person' ? pairBirthDates() : [],
    });
}
async function* pairList(): AsyncGenerator<string> {
  yield header;
  for (const [key, { id, kind, birthDates }] of listedNames) {
    yield `${id},${schemaOf(kind)},${quoted(key.split('\t')[1] as string)},,${birthDateCell(birthDates)},,Evaluation\n`;
  }
  yield* generated(20_000, 0xbac6);
}

/**
 * The birth date each pair's client gives, when screened with birth dates: a match is the listed
 * person, who gives the listed date (or one a year off, or none: `matchedClientBirthDates`); a
 * look-alike is another person, who gives a date of their own in four cases of five.
 */
const pairClientBirthDates = (set: readonly LabelledPair[]): (string | undefined)[] => {
  const matched = matchedClientBirthDates(0x9a16);
  const own = clientBirthDates(0x9a17);
  const gives = seededRandom(0x9a18);
  return set.map((pair) => {
    if (pair.kind !== 'person') return undefined;
    if (pair.match) return matched(listedNames.get(`${pair.kind}\t${pair.listed}`)?.birthDates ?? []);
    return gives() < 0.8 ? own() : undefined;
  });
};
/** The clean clients' birth dates are drawn from this seed (EVAL_CLEAN_BIRTH_DATE_SEED: another draw, to see the spread). */
const cleanBirthDateSeed = Number(process.env.EVAL_CLEAN_BIRTH_DATE_SEED ?? 0xc1ea);
/** Whether to screen with birth dates: both runs are reported, the name-only one comparable with earlier passes. */
const readings = [
  { name: 'names only', birthDates: false },
  { name: 'with birth dates', birthDates: true },
] as const;

const kindOf = (kind: string) => (kind === 'person' ? 'person' : 'organization') as 'person' | 'organization';
const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));

for (const matcher of matchers.slice(0, Number(process.env.EVAL_MATCHERS ?? matchers.length))) {
  const list = await matcher.load(pairList());
  for (const reading of readings)
    for (const set of sets) {
      const birthDates = pairClientBirthDates(set.pairs);
      let truePositives = 0;
      let falsePositives = 0;
      let falseNegatives = 0;
      const misses = new Map<string, { found: number; of: number }>();
      const examples: string[] = [];
      // The birth-date evidence of the matches found (how many were screened with a date, and what it said).
      const evidence = new Map<string, number>();
      for (const [at, pair] of set.pairs.entries()) {
        const id = listedNames.get(`${pair.kind}\t${pair.listed}`)?.id;
        const birthDate = reading.birthDates ? birthDates[at] : undefined;
        const screened = {
          kind: kindOf(pair.kind),
          name: pair.screened,
          ...(birthDate === undefined ? {} : { birthDate }),
        };
        const hit = list.match(screened).find((match) => match.targetId === id);
        const found = hit !== undefined;
        if (found && pair.match && reading.birthDates) {
          const said = hit.explanation?.birthDate?.outcome ?? 'no date given';
          evidence.set(said, (evidence.get(said) ?? 0) + 1);
        }
        const variation = `${pair.match ? 'match' : 'non-match'}: ${pair.variation}`;
        const tally = misses.get(variation) ?? { found: 0, of: 0 };
        tally.of += 1;
        if (found) tally.found += 1;
        misses.set(variation, tally);
        if (found && pair.match) truePositives += 1;
        if (found && !pair.match) falsePositives += 1;
        if (!found && pair.match) falseNegatives += 1;
        if (found !== pair.match && examples.length < shownExamples) {
          // The pair's own score, whether or not the index made it a candidate: a miss scored at or
          // above the threshold was never a candidate.
          const own = list.match(screened, 0, id === undefined ? [] : [id]);
          examples.push(
            `${pair.match ? 'missed' : 'flagged'}: ${pair.listed} / ${pair.screened} (score ${own.find((match) => match.targetId === id)?.score ?? 0})`,
          );
        }
      }
      console.log(`\n${matcher.name}, ${set.name}, ${reading.name}: ${set.pairs.length} labelled pairs`);
      console.log(
        `precision ${ratio(truePositives, truePositives + falsePositives)}  recall ${ratio(truePositives, truePositives + falseNegatives)}  (${truePositives} found, ${falseNegatives} missed, ${falsePositives} look-alikes flagged)`,
      );
      if (evidence.size > 0)
        console.log(
          `  birth dates of the matches found: ${[...evidence]
            .sort()
            .map(([said, count]) => `${count} ${said}`)
            .join(', ')}`,
        );
      for (const [variation, { found, of }] of [...misses].sort())
        console.log(`  ${variation}: ${found}/${of} flagged`);
      for (const example of examples) console.log(`  ${example}`);
    }

  async function* cleanList(): AsyncGenerator<string> {
    yield header;
    yield* generated(listTargets, 0x1157);
  }
  const listed = new Set<string>();
  const started = performance.now();
  const big = await matcher.load(
    (async function* () {
      for await (const row of cleanList()) {
        const name = row.split(',')[2];
        if (name !== undefined) listed.add(normalizeName(name.replaceAll('"', '')));
        yield row;
      }
    })(),
  );
  const loadSeconds = (performance.now() - started) / 1000;
  for (const { name: cleanSet, names: cleanNames } of cleanSets)
    for (const reading of readings) {
      // Each clean client's own birth date, drawn independently of the list's.
      const cleanBirthDate = clientBirthDates(cleanBirthDateSeed);
      let screened = 0;
      let alerted = 0;
      // Alerts on a listed name the client's name is word for word, but for a middle name it leaves
      // out (`Ivan Frolov` / `Ivan Sergeevich Frolov`): the same name as far as the list says.
      let shorter = 0;
      const alerts: string[] = [];
      for (const name of cleanNames) {
        const birthDate = cleanBirthDate();
        if (listed.has(normalizeName(name))) continue;
        screened += 1;
        const hits = big.match({ kind: 'person', name, ...(reading.birthDates ? { birthDate } : {}) });
        if (hits.length > 0) {
          alerted += 1;
          const [hit] = hits;
          const explanation = hit?.explanation;
          if (
            explanation !== undefined &&
            explanation.unmatchedSubject.length === 0 &&
            explanation.tokens.every((token) => token.kind === 'EXACT')
          )
            shorter += 1;
          if (alerts.length < Number(process.env.EVAL_SHOWN_ALERTS ?? 8) && hit !== undefined) {
            const born =
              explanation?.birthDate === undefined ? '' : ` [birth date: ${explanation.birthDate.outcome}]`;
            alerts.push(`${name} / ${hit.matchedName}: ${hit.explanation?.summary ?? hit.score}${born}`);
          }
        }
      }
      console.log(
        `${cleanSet}, ${reading.name}: ${((alerted / screened) * 1000).toFixed(1)} alerts per 1,000 (${alerted} of ${screened} not identical to a listed name, against ${listTargets.toLocaleString('en')} targets loaded in ${loadSeconds.toFixed(1)} s)`,
      );
      if (shorter > 0)
        console.log(
          `  of which ${shorter} on a listed name the client's is word for word but for a middle name left out (${((shorter / screened) * 1000).toFixed(1)} per 1,000), ${alerted - shorter} on another name (${(((alerted - shorter) / screened) * 1000).toFixed(1)} per 1,000)`,
        );
      for (const alert of alerts) console.log(`  ${alert}`);
    }
}
