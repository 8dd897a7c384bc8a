/**
 * The keys under which a screened name is kept in the kit's index of screened names, and under
 * which a changed list target looks up its candidates (monitoring, decisions §12). The provider
 * decides which candidates are hits; a key only has to be shared by the names a matcher could call
 * alike, and by few others, or a common first name would make every client a candidate.
 *
 * A name's words (letters and digits, accents dropped, lower case; particles and legal forms such
 * as `al`, `bin`, `van`, `ltd`, `llc` left out) are taken by their sound (`soundOf`), so spelling
 * and transliteration variants share them (`mohammed`, `muhammad` → `mhmd`; `aleksey`, `alexey` →
 * `lks`). The keys are:
 * - for a name of two words or more, each pair of its words' sounds (`lks+nfln` for Alexey
 *   Navalny): a name alike enough to be a hit shares two words with it;
 * - for a name of one word, that word's sound;
 * - the sound of all its words joined, for names the list writes as one word (`binladen` for
 *   `Bin Laden`).
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
  if (words.length > 1) keys.add(soundOf(words.join('')));
  const sounds = [
    ...new Set(words.filter((word) => word.length >= 2 && !COMMON_WORDS.has(word)).map(soundOf)),
  ].slice(0, MAX_PAIRED_WORDS);
  if (sounds.length === 1) keys.add(sounds[0] as string);
  for (let i = 0; i < sounds.length; i += 1) {
    for (let j = i + 1; j < sounds.length; j += 1) {
      const [a, b] = [sounds[i] as string, sounds[j] as string].sort();
      keys.add(`${a}+${b}`);
    }
  }
  if (keys.size === 0 && words.length === 1) keys.add(soundOf(words[0] as string));
  return [...keys];
};

/** Words of one name paired at most (a name's keys grow with the square of its words). */
const MAX_PAIRED_WORDS = 8;

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
  [/[wv]/g, 'f'],
  [/dh|th/g, 't'],
  [/kh|gh/g, 'h'],
  [/sch|sh|ch/g, 's'],
  [/j/g, 'y'],
];

/**
 * A word as it sounds: its consonants, vowels and `y` dropped and doubled letters written once
 * (`petrov`, `petroff` → `ptrf`). A word whose sound would be under three letters (`ivan` → `fn`)
 * is kept as written, and so is a word outside a–z.
 */
const soundOf = (word: string): string => {
  if (!/^[a-z0-9]+$/.test(word)) return word;
  let sound = word;
  for (const [pattern, replacement] of SOUNDS) sound = sound.replace(pattern, replacement);
  sound = sound.replace(/[aeiouy]/g, '').replace(/(.)\1+/g, '$1');
  return sound.length >= 3 ? sound : word;
};
