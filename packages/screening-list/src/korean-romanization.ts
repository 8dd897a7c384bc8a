/**
 * Korean names written in Latin letters by any romanization, read as one: Revised Romanization
 * (`Gim Jeong-eun`, `Bak`, `Choe`), McCune-Reischauer without its marks (`Kim Chong-un`, `Pak`),
 * and the spellings people use (`Park`, `Lee`, `Rhee`, `Choi`, `Chung`). Two romanizations of one
 * name write a consonant voiced or voiceless (`g` / `k`, `d` / `t`, `b` / `p`), a vowel
 * `eo` or `o`, `eu` or `u`, and the common family names each their own way; read here as lists write
 * Korean names (the McCune-Reischauer-like spelling `hangulSyllable` gives Hangul, `normalize-name.ts`),
 * `gim jeong eun` → `kim jong un`, `park yong sik` → `pak yong sik`.
 *
 * The reading is another reading of the name, screened and indexed beside the name as written
 * (`koreanReading`), never in its place: `Dan Park`, `Dina Lee`, `Lim Boon Heng` read as Korean by
 * their shape and are not. Only a name that reads as Korean is read so (`koreanNameWords`): two to
 * four words, the first or the last a Korean family name, every other word one or two Korean
 * syllables; and its given name only when the name shows it Korean (`KOREAN_GIVEN_NAME`): written
 * in two words or with a hyphen (`Jeong-eun`, `Yong Sik`), or with Revised Romanization's `eo` or
 * `eu`. Otherwise the family name alone is read (`Bak Yongsik` → `pak yongsik`): a given name of one
 * word is as often another culture's (`Dina`, `Dan`, `Ben`), which voicing would make another's
 * (`Tina`, `Tan`, `Pen`). No package of the registry reads one romanization into another (they
 * romanize Hangul, which `any-ascii` does).
 */

/**
 * Korean family names, each spelling read as lists write it where the spelling is its own (`Park`,
 * `Lee`, `Choi`); the others as any Korean word is read (`koreanWord`: `Gim` → `kim`, `Jeong` →
 * `jong`). A word is read so wherever it stands: the family name may be written last, and one of
 * these may be a given name's syllable (`PAK Chang Ho` / `Chang Ho Pak`).
 */
const FAMILY_NAMES: ReadonlyMap<string, string | null> = new Map(
  Object.entries({
    kim: null,
    gim: null,
    lee: 'ri',
    yi: 'ri',
    rhee: 'ri',
    rhie: 'ri',
    ri: null,
    park: 'pak',
    pak: null,
    bak: null,
    bahk: 'pak',
    choi: 'choe',
    choe: null,
    chwe: 'choe',
    jeong: null,
    jong: null,
    chong: null,
    jung: null,
    chung: null,
    kang: null,
    gang: null,
    cho: null,
    jo: null,
    yoon: null,
    yun: null,
    jang: null,
    chang: null,
    lim: null,
    rim: null,
    shin: null,
    sin: null,
    kwon: null,
    gwon: null,
    hwang: null,
    ahn: 'an',
    ryu: null,
    jeon: null,
    jon: null,
    chon: null,
    seo: null,
    suh: 'so',
    moon: null,
    mun: null,
    baek: null,
    paek: null,
    bae: null,
    pae: null,
    kwak: null,
    gwak: null,
    hong: null,
    koh: 'ko',
    oh: 'o',
    han: null,
    ryang: null,
  }),
);

// One syllable: an initial consonant (doubled: a tense one), a vowel, a final consonant.
const SYLLABLE =
  '(?:kk|tt|pp|ss|jj|ch|sh|[gkndtrlmbpsjh])?(?:yeo|yae|wae|ae|ya|eo|ye|wa|oe|oi|yo|wo|we|wi|yu|eu|ui|oo|a|e|o|u|i)(?:ng|h|[kntlmpgbdr])?';
const KOREAN_WORD = new RegExp(`^(${SYLLABLE})(${SYLLABLE})?$`);

/** A word's first consonant as lists write it: voiceless (`Gim` → `Kim`, `Bak` → `Pak`), a tense one single. */
const INITIALS: Readonly<Record<string, string>> = {
  g: 'k',
  kk: 'k',
  b: 'p',
  pp: 'p',
  d: 't',
  tt: 't',
  jj: 'j',
  sh: 's',
  ss: 's',
};
const INITIAL = /^(?:kk|tt|pp|ss|jj|sh|[gbd])/;

/**
 * A word of Korean syllables as lists write it: its first consonant voiceless (`geon` → `kon`),
 * `eo` as `o` and `eu` as `u` wherever they stand (`jeongeun` → `jongun`), `oo` as `u`. A consonant
 * inside the word is left as written: where one syllable ends and the next begins is not always
 * clear (`jongun`: `jong-un` or `jon-gun`), and the words lists write joined keep it too. `j` and
 * `ch` are not read as one (`Jong`, `Chol`: lists write both), nor a final `h` dropped.
 */
const koreanWord = (written: string): string => {
  const initial = INITIAL.exec(written)?.[0] ?? '';
  const rest = written
    .slice(initial.length)
    .replace(/eo/g, 'o')
    .replace(/eu/g, 'u')
    .replace(/oo/g, 'u')
    .replace(/oi/g, 'oe');
  return (INITIALS[initial] ?? initial) + rest;
};

/** Whether the word is a Korean family name as some romanization writes it. */
export const isKoreanFamilyName = (word: string): boolean => FAMILY_NAMES.has(word);

/** Whether a word begins with a Korean family name and has more letters (`Gimjeongeun`: a name run together, maybe). */
export const startsWithKoreanFamilyName = (word: string): boolean => {
  for (let length = 1; length <= 4 && length < word.length; length += 1)
    if (FAMILY_NAMES.has(word.slice(0, length))) return true;
  return false;
};

/** How many Korean syllables a word of one or two is, or 0 when it is none. */
const syllables = (word: string): number => {
  const read = KOREAN_WORD.exec(word);
  return read === null ? 0 : read[2] === undefined ? 1 : 2;
};

/** Revised Romanization's vowels, which no other romanization of Korean writes (`Jeong`, `Eun`). */
const REVISED_ROMANIZATION_VOWEL = /eo|eu/;

/**
 * A given name's syllable as lists write it (`koreanWord`), its first `ch` read `j` when
 * `chAsJ`: McCune-Reischauer writes ㅈ `ch` (`Kim Chong-un`) where Revised Romanization and the
 * lists write `j` (`KIM Jong Un`; `ch` is their ㅊ: `PAK Myong Chol`). Read so only in a screened
 * name written the McCune-Reischauer way, its given name hyphenated and without Revised
 * Romanization's `eo` / `eu` (whose `ch` is ㅊ: `Pyeong-cheol`): a name written as lists write it
 * (`Ri Myong Chol`) is read as written, and a listed name never.
 */
const givenNameWord = (written: string, chAsJ: boolean): string => {
  const read = koreanWord(written);
  return chAsJ && read.startsWith('ch') ? `j${read.slice(2)}` : read;
};

/**
 * A name written as one word that begins with a Korean family name and goes on with one to three
 * Korean syllables (`Gimjeongeun`, `Kimjongun`), as two words: the family name and the given name;
 * otherwise the words as they are.
 */
const oneWordName = (words: readonly string[]): readonly string[] => {
  const word = words[0] as string;
  for (let length = 4; length >= 1; length -= 1) {
    const family = word.slice(0, length);
    const given = word.slice(length);
    if (given.length > 0 && FAMILY_NAMES.has(family) && syllables(given) > 0) return [family, given];
  }
  return words;
};

/**
 * The words of a name read as lists write Korean names, when the name reads as Korean (two to four
 * words, the first or the last a family name of `FAMILY_NAMES`, the others one or two syllables
 * each, three at most between them; or one word of a family name and a given name run together);
 * otherwise the words as they are (the same array). The given name is read only when written in
 * two words, or with `eo` or `eu`, or run into the family name with two syllables; else the family
 * name alone.
 */
export const koreanNameWords = (written: readonly string[], chAsJ = false): readonly string[] => {
  const words = written.length === 1 ? oneWordName(written) : written;
  if (words.length < 2 || words.length > 4) return written;
  const first = words[0] as string;
  const last = words[words.length - 1] as string;
  const familyAt = FAMILY_NAMES.has(first) ? 0 : FAMILY_NAMES.has(last) ? words.length - 1 : -1;
  if (familyAt < 0) return written;
  let given = 0;
  let korean = words.length > 2;
  for (let at = 0; at < words.length; at += 1) {
    if (at === familyAt) continue;
    const word = words[at] as string;
    const count = syllables(word);
    if (count === 0) return written;
    given += count;
    if (REVISED_ROMANIZATION_VOWEL.test(word) || (written.length === 1 && count === 2)) korean = true;
  }
  if (given > 3) return written;
  // Revised Romanization writes ㅊ `ch` (`Pyeong-cheol`): only a name without its vowels reads `ch` as ㅈ.
  const chIsJ = chAsJ && !words.some((word, at) => at !== familyAt && REVISED_ROMANIZATION_VOWEL.test(word));
  return words.map((word, at) =>
    at === familyAt
      ? (FAMILY_NAMES.get(word) ?? koreanWord(word))
      : korean
        ? givenNameWord(word, chIsJ)
        : word,
  );
};

/**
 * The name's words (normalized) read as lists write Korean names (`koreanNameWords`), joined by a
 * space, when the name reads as Korean and the reading is other words; undefined otherwise. With
 * `chAsJ` (a screened name whose given name is hyphenated), a given name's first `ch` read `j`.
 */
export const koreanReading = (words: readonly string[], chAsJ = false): string | undefined => {
  const read = koreanNameWords(words, chAsJ);
  return read === words || (read.length === words.length && read.every((word, at) => word === words[at]))
    ? undefined
    : read.join(' ');
};
