/**
 * The keys under which a screened name is kept in the kit's index of screened names, and under
 * which a changed list target looks up its candidates (monitoring, decisions §12), made from the
 * name's words (`screeningKeysOfWords`). The provider decides which candidates are hits; a key
 * only has to be shared by the names a matcher could call alike, and by few others, or a common
 * first name would make every client a candidate.
 *
 * These are the kit's own keys, for a provider that gives none (`ScreeningProvider.nameKeys`):
 * a name's words are its letters and digits, accents dropped, lower case. Words of another script
 * keep their letters: a client written in Cyrillic shares keys with a listed alias written in
 * Cyrillic, not with its Latin transliteration. A provider that transliterates names (the list
 * provider of `@onboarding-kit/screening-list`) gives keys made from its own words, so that a name
 * and its transliteration share them.
 */
export const screeningNameKeys = (name: string): string[] =>
  screeningKeysOfWords(
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/['’`.]/g, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 0),
  );

/**
 * The index keys of a name given as its words, normalized by whoever gives them (lower-case
 * letters and digits). Particles and legal forms such as `al`, `bin`, `van`, `ltd`, `llc` are left
 * out, and each word is taken by its sound (`soundOf`), so that spelling and transliteration
 * variants share them (`mohammed`, `muhammad`, `mhmd` → `mhmd`; `aleksey`, `alexey` → `lks`).
 * The keys are:
 * - for a name of two words or more, each pair of its words' sounds (`lks+nfln` for Alexey
 *   Navalny): a name alike enough to be a hit shares two words with it; and each pair with one
 *   letter left out of one sound of four letters or more (`lks+fln`, `lks+nfl` …), so that a word misspelled by a letter
 *   (`Navaln`, `Aleksey Nawalnyy`) still shares one with it;
 * - the initial of its first word with the sound of its last (`a.nfln`), for a name written with
 *   an initial (`A. Navalny`), and each initial it gives with each word's sound, for one written
 *   family name first (`Navalny A.`);
 * - for a name of one word, that word's sound;
 * - the sound of all its words joined, and of each pair of its words joined in order, for names
 *   written as one word (`binladen` for `Bin Laden`, `VladimirPutin` for Vladimir Vladimirovich
 *   Putin) or that a script writes as syllables (`xi jin ping`, `Xi Jinping`).
 */
export const screeningKeysOfWords = (
  words: readonly string[],
  /**
   * The words the name marks as its family name, when it does (`PUTIN Vladimir`, `Sokolov,
   * Dmitri`: the normalized words of the part in capitals, or before a comma), wherever they stand:
   * each other word's initial is keyed with their sound (`v.ptn`), as a name given name first keys
   * its first word's initial with its last word's (`V. V. Putin`). Without the mark, the initial of
   * a last word with the first word's sound would make every `Ivan Z…` share a key.
   */
  familyName: readonly string[] = [],
): string[] => {
  const keys = new Set<string>();
  if (words.length > 1) keys.add(soundOf(words.join('')));
  const uncommon = words.filter((word) => !COMMON_WORDS.has(word));
  // A name of common words only (`Capital Trading`) is keyed by them.
  const content = [...new Set(uncommon.length > 0 ? uncommon : words)].slice(0, MAX_PAIRED_WORDS);
  const sounded = content.filter((word) => word.length >= 2);
  const sounds = [...new Set(sounded.map(soundOf))];
  if (sounds.length === 1) keys.add(sounds[0] as string);
  const pair = (a: string, b: string) => (a < b ? `${a}+${b}` : `${b}+${a}`);
  for (let i = 0; i < sounds.length; i += 1) {
    for (let j = i + 1; j < sounds.length; j += 1) keys.add(pair(sounds[i] as string, sounds[j] as string));
  }
  // A letter missing, added or changed in one word: its consonants with one left out meet the
  // other's (`rtnbrk`, `rtbrk`), short words' too (`yusuf` → `sf`, يوسف → `fsf`).
  const consonants = [...new Set(sounded.map(consonantsOf))].filter((sound) => sound.length >= 2);
  for (let i = 0; i < consonants.length; i += 1) {
    for (let j = i + 1; j < consonants.length; j += 1) {
      const [a, b] = [consonants[i] as string, consonants[j] as string];
      // Two consonants with two would pair too many names (`kl+mr`): five at least between them.
      const selective = (x: string, y: string) => x.length + y.length >= 5;
      if (selective(a, b)) keys.add(pair(a, b));
      for (const shorter of oneLetterLess(a)) if (selective(shorter, b)) keys.add(pair(shorter, b));
      for (const shorter of oneLetterLess(b)) if (selective(a, shorter)) keys.add(pair(a, shorter));
    }
  }
  for (let i = 0; i < sounded.length; i += 1) {
    for (let j = i + 1; j < sounded.length; j += 1) keys.add(soundOf(`${sounded[i]}${sounded[j]}`));
  }
  const [first] = content;
  const last = sounded.at(-1);
  if (first !== undefined && last !== undefined && last !== first) {
    keys.add(`${first.charAt(0)}.${soundOf(last)}`);
  }
  // Each initial the name gives with each word's sound: a name written family name first with
  // its initials after (`Orlov V.`, `Khodorkovskiy M. B.`) meets the listed name's key above.
  // Only initials do: the initial of a full name's last word with its first word's sound would
  // make every `Ivan Z…` share a key.
  for (const initial of content) {
    if (initial.length !== 1) continue;
    for (const word of sounded) keys.add(`${initial}.${soundOf(word)}`);
  }
  for (const family of familyName) {
    if (family.length < 2 || COMMON_WORDS.has(family)) continue;
    for (const word of content)
      if (word !== family && !familyName.includes(word)) keys.add(`${word.charAt(0)}.${soundOf(family)}`);
  }
  if (keys.size === 0 && words.length === 1) keys.add(soundOf(words[0] as string));
  return [...keys];
};

/** A sound with each of its letters left out in turn (none for a sound of under four letters: a shorter one would select too many). */
const oneLetterLess = (sound: string): string[] =>
  sound.length < 3 ? [] : Array.from(sound, (_, at) => sound.slice(0, at) + sound.slice(at + 1));

/** Words of one name paired at most (a name's keys grow with the square of its words). */
const MAX_PAIRED_WORDS = 8;

const COMMON_WORDS: ReadonlySet<string> = new Set(
  [
    ['al', 'el', 'bin', 'ibn', 'bint', 'abu', 'de', 'da', 'di', 'du', 'la', 'le', 'van', 'von', 'der', 'den'],
    ['ltd', 'llc', 'inc', 'sa', 'gmbh', 'co', 'plc', 'ag', 'bv', 'nv', 'srl', 'sarl', 'spa', 'sl', 'as'],
    ['jsc', 'ooo', 'pjsc', 'oao', 'zao', 'limited', 'company', 'corp', 'corporation', 'the', 'and', 'of'],
    // Words of so many companies' names that a key made with them would select thousands.
    ['holding', 'holdings', 'trading', 'capital', 'group', 'international', 'investment', 'investments'],
    ['maritime', 'shipping', 'services', 'industries', 'enterprises', 'global', 'management', 'partners'],
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
  const sound = consonantsOf(word);
  return sound.length >= 3 ? sound : word;
};

/** A word's consonants as `soundOf` takes them, however few (`yusuf` → `sf`); a word outside a–z as written. */
const consonantsOf = (word: string): string => {
  if (!/^[a-z0-9]+$/.test(word)) return word;
  let sound = word;
  for (const [pattern, replacement] of SOUNDS) sound = sound.replace(pattern, replacement);
  return sound.replace(/[aeiouy]/g, '').replace(/(.)\1+/g, '$1');
};
