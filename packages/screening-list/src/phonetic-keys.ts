import { doubleMetaphone } from 'double-metaphone';

/** Letter groups written for one consonant, read as the letter of its class. */
const SKELETON_DIGRAPHS: readonly (readonly [RegExp, string])[] = [
  [/sch|sh|zh|tz|ts/g, 's'],
  [/ch/g, 'h'],
  [/kh|gh|ck/g, 'k'],
  [/ph/g, 'p'],
  [/th|dh/g, 't'],
  [/x/g, 'ks'],
];
/**
 * Consonants a romanization writes one for another, each read as one letter of its class
 * (`Gim` / `Kim`, `Abraham` / `Avraham`, `Peretz` / `Perez`, `Haddad` / `Hadad`).
 */
const SKELETON_CLASSES: Readonly<Record<string, string>> = {
  b: 'p',
  f: 'p',
  v: 'p',
  c: 'k',
  q: 'k',
  g: 'k',
  d: 't',
  z: 's',
};
/** Letters a script without vowels leaves out or writes for a vowel (ו / و, י / ي, ה). */
const SKELETON_WEAK = 'aeiouywh';

const skeletonOf = (word: string, dropV: boolean, vowelless: boolean): string => {
  let text = word;
  for (const [pattern, replacement] of SKELETON_DIGRAPHS) text = text.replace(pattern, replacement);
  let skeleton = '';
  let previous = '';
  for (const letter of text) {
    if (SKELETON_WEAK.includes(letter) || (dropV && letter === 'v')) {
      previous = '';
      continue;
    }
    const folded = SKELETON_CLASSES[letter] ?? letter;
    // A doubled consonant is one (`haddad`); a script without vowels writes none doubled, so
    // two alike there are two (حداد, hdd).
    if (vowelless || folded !== previous) skeleton += folded;
    previous = folded;
  }
  return skeleton;
};

/**
 * The consonant skeleton of a normalized word, as a script without short vowels writes it: its
 * consonants in order, each of its class (`b`/`f`/`p`/`v`, `c`/`g`/`k`/`q`, `d`/`t`, `s`/`z`/`sh`/`ts`),
 * vowels, `h`, `w`, `y` left out (the letters an abjad writes for a long vowel or leaves out), a
 * doubled consonant one: `muhammad` and Arabic's transliterated `mhmd` are both `mmt`, `yosef` and
 * Hebrew's `wsp` both `sp`, `qaeda` and `qaida` `kt`.
 */
export const consonantSkeleton = (word: string): string => skeletonOf(word, false, isVowelless(word));

/**
 * The word's skeletons: `consonantSkeleton`, and for a word with a `v` also the skeleton without
 * it (Hebrew writes ו, read `v` in `David` and `Levi`, also for a vowel, and leaves it out of the
 * skeleton: דוד, `dwd`, is `tt`, as `david` is read either way).
 */
export const consonantSkeletons = (word: string): readonly string[] => {
  const skeleton = consonantSkeleton(word);
  if (isVowelless(word)) {
    // The article's lam before a lam (الله, `llh`: عبدالله, نصرالله written as one word) is two
    // letters of the script and one doubled `l` of a romanization (`abdullah`, `nasrallah`: `ptl`,
    // `nsrl`): the skeleton is also read with it once.
    const lamOnce = word.includes('ll') ? skeletonOf(word.replace(/l+/g, 'l'), false, true) : skeleton;
    return lamOnce === skeleton ? [skeleton] : [skeleton, lamOnce];
  }
  if (!word.includes('v')) return [skeleton];
  const withoutV = skeletonOf(word, true, false);
  return withoutV === skeleton ? [skeleton] : [skeleton, withoutV];
};

/** Letters a romanization writes one for another without changing the name. */
const ROMANIZATION_FOLDS: Readonly<Record<string, string>> = {
  c: 'k',
  q: 'k',
  w: 'v',
  y: 'i',
  e: 'i',
  o: 'u',
};

/**
 * The word as its romanizations share it: `ph` / `f`, `c` / `k` / `q`, `w` / `v`, `x` / `ks`,
 * `tz` / `ts`, `kh` / `h`, `yo` / `e` after a consonant, an `h` after `r`, `g`, `d`, `b` left out, `y` / `e` / `i` and `o` / `u` (the vowels
 * Arabic, Persian and Cyrillic leave to the romanizer), `ou` / `u`, `ee` / `i`, a final `iy` / `i`,
 * and doubled letters one. Two spellings of a name by two romanizations
 * share it (`vasilyev` / `vasiliev`, `tatyana` / `tatiana`, `mahmoud` / `mahmud`, `qaeda` /
 * `qaida`, `osama` / `usama`, `dmitriy` / `dmitri`, `rhee` / `ri`); two names that differ by
 * another vowel (`belov` / `balov`, `rabaki` / `ribaki`) do not.
 */
export const romanizationKey = (word: string): string => {
  const text = word
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/tz/g, 'ts')
    // Upper case: one letter of the key, never merged with the next as a doubled letter would be
    // (`pououpou` is not `poupouou`, nor `pouou` `pououou`).
    .replace(/ou/g, 'U')
    .replace(/ee/g, 'I')
    .replace(/iy$/, 'i')
    .replace(/(?<=[rgdb])h/g, '')
    // Cyrillic х and Arabic خ are written `kh` by one romanization, `h` by another (`Mikhail` / `Mihail`).
    .replace(/kh/g, 'h')
    // Russian ё, written `yo` or `e` (`Zhuravlyov` / `Zhuravlev`, `Fyodor` / `Fedor`).
    .replace(/(?<=[b-df-hj-np-tv-z])yo/g, 'e');
  let key = '';
  let previous = '';
  // A doubled letter is one; two letters read alike are not (`yemi` / `eme` stay apart).
  for (const letter of text) {
    if (letter === 'U' || letter === 'I') key += letter.toLowerCase();
    else if (letter !== previous) key += ROMANIZATION_FOLDS[letter] ?? letter;
    previous = letter;
  }
  return key;
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
