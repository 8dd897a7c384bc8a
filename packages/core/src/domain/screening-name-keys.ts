/**
 * The keys under which a screened name is kept in the kit's index of screened names, and under
 * which a changed list target looks up its candidates (monitoring, decisions §12). Selection is
 * generous on purpose: the provider decides which candidates are hits, so a key only has to be
 * shared by names a matcher could call alike. A name gets:
 * - each word (letters and digits, accents dropped, lower case) of two characters or more: `putin`,
 *   but for particles and legal forms (`al`, `bin`, `van`, `ltd`, `llc`), which half of a list's
 *   names share and no match rests on alone;
 * - the words joined, for names the list writes as one word: `binladen` for `Bin Laden`;
 * - each word's sound skeleton, for spelling and transliteration variants (`mohammed` and
 *   `muhammad` → `#mhmd`, `navalnyy` and `navalny` → `#nvln`, `aleksey` and `alexey` → `#lks`).
 * Words of another script keep their letters: a client written in Cyrillic shares keys with a
 * listed alias written in Cyrillic, not with its Latin transliteration (lists give both).
 */
export const screeningNameKeys = (name: string): string[] => {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`.]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  const keys = new Set<string>();
  for (const word of words) {
    if (word.length < 2 || COMMON_WORDS.has(word)) continue;
    keys.add(word);
    const skeleton = soundSkeleton(word);
    if (skeleton.length >= 3) keys.add(`#${skeleton}`);
  }
  if (words.length > 1) keys.add(words.join(''));
  return [...keys];
};

const COMMON_WORDS: ReadonlySet<string> = new Set(
  [
    ['al', 'el', 'bin', 'ibn', 'bint', 'abu', 'de', 'da', 'di', 'du', 'la', 'le', 'van', 'von', 'der', 'den'],
    ['ltd', 'llc', 'inc', 'sa', 'gmbh', 'co', 'plc', 'ag', 'bv', 'nv', 'srl', 'sarl', 'spa', 'sl', 'as'],
    ['jsc', 'ooo', 'pjsc', 'oao', 'zao', 'limited', 'company', 'corp', 'corporation', 'the', 'and', 'of'],
  ].flat(),
);

// Letters written differently for one sound, as transliterations and spellings vary them.
const SOUNDS: readonly (readonly [RegExp, string])[] = [
  [/ph/g, 'f'],
  [/(ck|q|c)/g, 'k'],
  [/x/g, 'ks'],
  [/(ts|tz|z)/g, 's'],
  [/w/g, 'v'],
  [/dh|th/g, 't'],
  [/kh|gh/g, 'h'],
  [/sch|sh|ch/g, 's'],
  [/j/g, 'y'],
];

/**
 * A word's consonants as they sound, vowels and `y` dropped and doubled letters written once;
 * empty for words outside a–z.
 */
const soundSkeleton = (word: string): string => {
  if (!/^[a-z]+$/.test(word)) return '';
  let sound = word;
  for (const [pattern, replacement] of SOUNDS) sound = sound.replace(pattern, replacement);
  return sound.replace(/[aeiouy]/g, '').replace(/(.)\1+/g, '$1');
};
