import { token_sort_ratio } from 'fuzzball';
import { describe, expect, it } from 'vitest';
import { loadSanctionsList, nameTokens, normalizeName, type ScreenedName } from '../src/index.js';
import { characterKinds, mayReach, screenedCharacters } from '../src/score-upper-bound.js';

/** A deterministic generator (mulberry32): the same names every run. */
const generator = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const random = generator(0x5eed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
// Few syllables, so that many names are near one another.
const syllables = 'ka lo mir san tov el ri an dre vos ne ul ba shi'.split(' ');
const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(syllables)).join('');
const personName = () => Array.from({ length: 2 + Math.floor(random() * 2) }, word).join(' ');
const companyName = () => `${word()} ${word()} ${pick(['Holding', 'Trading', 'S.A.', 'Ltd 2', 'No 7'])}`;
/** A name a few edits away: a character changed, dropped or doubled, words swapped. */
const variant = (name: string): string => {
  const at = Math.floor(random() * name.length);
  const edits = [
    () => `${name.slice(0, at)}${pick(['a', 'e', 'o', 'y', '5'])}${name.slice(at + 1)}`,
    () => `${name.slice(0, at)}${name.slice(at + 1)}`,
    () => `${name.slice(0, at)}${name.charAt(at)}${name.slice(at)}`,
    () => name.split(' ').reverse().join(' '),
  ];
  return pick(edits)();
};

type Target = { id: string; schema: 'Person' | 'Company'; names: string[] };
const targets: Target[] = Array.from({ length: 3_000 }, (_, i) => {
  const person = random() < 0.7;
  const name = person ? personName() : companyName();
  return { id: `t${i}`, schema: person ? 'Person' : 'Company', names: [name, variant(name)] };
});
async function* csv() {
  yield 'id,schema,name,aliases,dataset\n';
  for (const { id, schema, names } of targets)
    yield `${id},${schema},"${names[0]}","${names[1]}",Generated\n`;
}

/**
 * What the list answers, computed the slow way: every listed name of the screened kind that shares
 * a word's first letter with the screened name, scored by fuzzball's token_sort_ratio; each target
 * once, at its best score, best first.
 */
const reference = (screened: ScreenedName, threshold: number) => {
  const normalized = normalizeName(screened.name);
  const initials = new Set(nameTokens(normalized).map((token) => token.charAt(0)));
  const schema = screened.kind === 'person' ? 'Person' : 'Company';
  const best = new Map<string, number>();
  for (const target of targets) {
    if (target.schema !== schema) continue;
    for (const name of target.names) {
      const listed = normalizeName(name);
      if (!nameTokens(listed).some((token) => initials.has(token.charAt(0)))) continue;
      const score = token_sort_ratio(normalized, listed, { full_process: false });
      if (score >= threshold && score > (best.get(target.id) ?? -1)) best.set(target.id, score);
    }
  }
  return [...best].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
};

describe('the bound that rules names out before they are scored', () => {
  it('rules out no match: the list answers what scoring every name would, at any threshold', async () => {
    const list = (await loadSanctionsList(csv()))._unsafeUnwrap();
    const screened: ScreenedName[] = Array.from({ length: 100 }, (_, i) => {
      const target = targets[(i * 37) % targets.length] as Target;
      const kind = target.schema === 'Person' ? 'person' : 'organization';
      if (i % 3 === 0) return { kind, name: personName() };
      return { kind, name: variant(variant(target.names[0] as string)) };
    });
    let matched = 0;
    for (const threshold of [95, 90, 70]) {
      for (const name of screened) {
        const answered = list.match(name, threshold).map(({ targetId, score }) => [targetId, score]);
        expect(answered, `${name.name} at ${threshold}`).toEqual(reference(name, threshold));
        matched += answered.length;
      }
    }
    // The comparison saw matches at every threshold, not only empty answers.
    expect(matched).toBeGreaterThan(150);
  });

  it('is exact at its edge: a name one character short of the threshold is ruled out, one at it is not', () => {
    // 'abcdefghij' against 'abcdefghi' scores 200 × 9 / 19 = 94.7 → 95.
    const screened = screenedCharacters('abcdefghij');
    const listed = { length: 9, kinds: characterKinds('abcdefghi') };
    expect(token_sort_ratio('abcdefghij', 'abcdefghi', { full_process: false })).toBe(95);
    expect(mayReach(screened, listed, 95)).toBe(true);
    expect(mayReach(screened, listed, 96)).toBe(false);
    // A listed name without the screened name's 'j' cannot match it on that character.
    const withoutJ = { length: 10, kinds: characterKinds('abcdefghik') };
    expect(token_sort_ratio('abcdefghij', 'abcdefghik', { full_process: false })).toBe(90);
    expect(mayReach(screened, withoutJ, 90)).toBe(true);
    expect(mayReach(screened, withoutJ, 91)).toBe(false);
  });
});
