import { doubleMetaphone } from 'double-metaphone';

const DIGRAPHS: readonly (readonly [RegExp, string])[] = [
  [/ph/g, 'f'],
  [/(?<=[kgdtsz])h/g, ''],
  [/ck/g, 'k'],
  [/x/g, 'ks'],
];
/** Letters a romanization writes one for another (`Gim` / `Kim`, `Sokolow` / `Sokolov`, `Tzvi` / `Zvi`). */
const FOLDS: Readonly<Record<string, string>> = {
  c: 'k',
  q: 'k',
  g: 'k',
  w: 'v',
  f: 'v',
  z: 's',
  d: 't',
  b: 'p',
};

/**
 * The consonant skeleton of a normalized word: its consonants, the letters a romanization swaps
 * folded together, vowels, `h`, `y` and repeats dropped (`muhammad`, `mohammed` and Arabic's
 * transliterated `mhmd` are all `mhmt`; `qaeda` and `qaida` `kt`). It keeps the order of the
 * consonants, which a vowel-less script (Arabic, Hebrew) writes and the romanizations share.
 */
export const consonantSkeleton = (word: string): string => {
  let text = word;
  for (const [pattern, replacement] of DIGRAPHS) text = text.replace(pattern, replacement);
  let skeleton = '';
  for (const letter of text) {
    if ('aeiouyh'.includes(letter)) continue;
    const folded = FOLDS[letter] ?? letter;
    if (!skeleton.endsWith(folded)) skeleton += folded;
  }
  return skeleton;
};

/** The only letters `vowelPattern` reads as one: those romanizations swap without changing a sound. */
const PATTERN_FOLDS: Readonly<Record<string, string>> = { c: 'k', q: 'k', w: 'v', z: 's' };

/**
 * The word with each run of vowels one `*` (and `ph` / `f`, `c` / `k` / `q`, `w` / `v`, `z` / `s`,
 * doubled letters, alike): two words that differ only in their vowels (`mohammed` / `muhammad`,
 * `qaeda` / `qaida`, `yusuf` / `youssef`) share it; a syllable more or less (`phutran` /
 * `phuhoatran`) or another consonant (`gorev` / `cherev`) does not.
 */
export const vowelPattern = (word: string): string => {
  const text = word.replace(/ph/g, 'f').replace(/ck/g, 'k').replace(/x/g, 'ks');
  let key = '';
  for (const letter of text) {
    const folded = 'aeiouy'.includes(letter) ? '*' : (PATTERN_FOLDS[letter] ?? letter);
    if (!key.endsWith(folded)) key += folded;
  }
  return key;
};

/** The word's Double Metaphone codes (primary, alternate): how it sounds, read as English would. */
export const metaphoneCodes = (word: string): readonly [string, string] => doubleMetaphone(word);

/** Whether a normalized word has no vowel: written in a script that leaves them out (`mhmd`, `slmn`). */
export const isVowelless = (word: string): boolean => word.length > 1 && !/[aeiouy]/.test(word);
