/**
 * Writes a held-out labelled set (`held-out-pairs.tsv`, the columns of `name-pairs.tsv`) of kinds
 * of variation the matcher was not tuned on, drawn from another seed and mostly from synthetic
 * family names (not the names of the tuned set): a letter typed for its neighbour on the keyboard,
 * a letter dropped from the given name, a native script without the middle name, a doubled letter,
 * a double surname hyphenated, a name upper-cased family first with a comma, a company's legal form
 * moved and written in another language; and look-alikes: a sibling (same family, another given
 * name), another family of the same culture, a company sharing its coined word but not its trade.
 *
 *     node --import tsx packages/screening-list/eval/generate-held-out-pairs.ts
 *
 * The committed file was measured once before any change made after looking at it; a fresh
 * sample of the same kinds (another seed, written beside it) measures what was changed since.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cultures, type Part, pick, seededRandom, syntheticFamily } from './multicultural-names.js';

type Pair = readonly [
  kind: 'person' | 'company',
  listed: string,
  screened: string,
  match: 0 | 1,
  variation: string,
];

/** Another sample of the same kinds: HELD_OUT_SEED and HELD_OUT_FILE (evaluated with EVAL_HELD_OUT_FILE). */
const random = seededRandom(Number(process.env.HELD_OUT_SEED ?? 0x4e1d));
const file = process.env.HELD_OUT_FILE ?? 'held-out-pairs.tsv';
/** Letters beside each on a QWERTY keyboard (the slip of a finger). */
const keyboard: Readonly<Record<string, string>> = {
  a: 'qsz',
  b: 'vn',
  c: 'xv',
  d: 'sf',
  e: 'wr',
  f: 'dg',
  g: 'fh',
  h: 'gj',
  i: 'uo',
  j: 'hk',
  k: 'jl',
  l: 'k',
  m: 'n',
  n: 'bm',
  o: 'ip',
  p: 'o',
  q: 'w',
  r: 'et',
  s: 'ad',
  t: 'ry',
  u: 'yi',
  v: 'cb',
  w: 'qe',
  x: 'zc',
  y: 'tu',
  z: 'x',
};
const keyboardSlip = (word: string): string => {
  const at = 2 + Math.floor(random() * (word.length - 2));
  const letter = word.charAt(at).toLowerCase();
  const beside = keyboard[letter];
  if (beside === undefined) return word;
  return word.slice(0, at) + pick(random, [...beside]) + word.slice(at + 1);
};
const dropLetter = (word: string): string => {
  const at = 1 + Math.floor(random() * (word.length - 2));
  return word.slice(0, at) + word.slice(at + 1);
};
const doubled = (word: string): string => {
  const double = /([b-df-hj-np-tv-z])\1/i.exec(word);
  if (double !== null) return word.slice(0, double.index) + word.slice(double.index + 1);
  const single = /(?<=[aeiou])([b-df-hj-np-tv-z])(?=[aeiou])/i.exec(word);
  return single === null ? word : word.slice(0, single.index + 1) + word.slice(single.index);
};
const written = (part: Part, native: boolean) => (native ? (part[1] ?? part[0]) : part[0]);
const companyWords = ['Metals', 'Shipping', 'Energy', 'Trading', 'Logistics', 'Capital', 'Mining'];

const pairs: Pair[] = [];
for (let round = 0; round < 10; round += 1) {
  for (const culture of cultures) {
    const given = pick(random, culture.given);
    const family = syntheticFamily(random, culture);
    const middle = culture.middle === undefined ? undefined : pick(random, culture.middle);
    const listed = culture.familyFirst
      ? `${family.toUpperCase()} ${given[0]}`
      : [given[0], middle?.[0], family.toUpperCase()].filter((part) => part !== undefined).join(' ');
    const plain = (giving: string, naming: string) =>
      culture.familyFirst ? `${naming} ${giving}` : `${giving} ${naming}`;
    if (family.length >= 6)
      pairs.push([
        'person',
        listed,
        plain(given[0], keyboardSlip(family)),
        1,
        'keyboard slip in the family name',
      ]);
    if (given[0].length >= 5)
      pairs.push([
        'person',
        listed,
        plain(dropLetter(given[0]), family),
        1,
        'letter dropped from the given name',
      ]);
    const withDouble = doubled(family);
    if (withDouble !== family)
      pairs.push(['person', listed, plain(given[0], withDouble), 1, 'doubled letter']);
    if (!culture.familyFirst) {
      const upper = `${family.toUpperCase()}, ${[given[0], middle?.[0]].filter(Boolean).join(' ').toUpperCase()}`;
      pairs.push(['person', listed, upper, 1, 'family first with a comma, upper case']);
    }
    // A native script with the middle name left out: the listed name has one, written in Latin.
    const native = pick(random, culture.family);
    if (middle !== undefined && native[1] !== undefined && given[1] !== undefined) {
      pairs.push([
        'person',
        `${given[0]} ${middle[0]} ${native[0].toUpperCase()}`,
        `${written(given, true)} ${written(native, true)}`,
        1,
        'native script, middle name left out',
      ]);
    }
    if (culture.name === 'spanish') {
      const second = syntheticFamily(random, culture);
      pairs.push([
        'person',
        `${given[0]} ${family.toUpperCase()}-${second.toUpperCase()}`,
        `${given[0]} ${family} ${second}`,
        1,
        'double surname hyphenated',
      ]);
    }
    const company = `${family} ${pick(random, companyWords)}`;
    pairs.push([
      'company',
      `OOO ${company}`,
      `${company} Limited Liability Company`,
      1,
      'legal form moved, in another language',
    ]);
    const otherTrade = companyWords.filter((word) => !company.endsWith(word));
    pairs.push([
      'company',
      `${company} LLC`,
      `${family} ${pick(random, otherTrade)} LLC`,
      0,
      'company sharing its coined word, not its trade',
    ]);
    // Look-alikes.
    const sibling = pick(
      random,
      culture.given.filter((part) => part[0] !== given[0]),
    );
    pairs.push(['person', listed, plain(sibling[0], family), 0, 'sibling: same family, another given name']);
    let other = syntheticFamily(random, culture);
    while (other === family) other = syntheticFamily(random, culture);
    pairs.push(['person', listed, plain(given[0], other), 0, 'another family of the culture']);
  }
}

const eol = '\n';
const directory = fileURLToPath(new URL('.', import.meta.url));
const unique = [...new Map(pairs.map((pair) => [`${pair[1]}\t${pair[2]}`, pair])).values()];
writeFileSync(
  `${directory}${file}`,
  `kind\tlisted\tscreened\tmatch\tvariation${eol}${unique.map((pair) => pair.join('\t')).join(eol)}${eol}`,
);
console.log(`${unique.length} held-out pairs (${unique.filter((pair) => pair[3] === 1).length} matches)`);
