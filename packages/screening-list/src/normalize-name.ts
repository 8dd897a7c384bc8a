import anyAscii from 'any-ascii';
import { foldConfusables, lookAlikeWord, oneForIReading } from './fold-confusables.js';
import { FRENCH_MARK, frenchTransliterationReading } from './french-transliteration.js';
import { isKoreanFamilyName, koreanReading, startsWithKoreanFamilyName } from './korean-romanization.js';
import { letterSpacedReading } from './letter-spaced-reading.js';
import { wadeGilesReading } from './wade-giles.js';

/** Format characters (zero-width joiners and spaces, bidirectional marks, soft hyphens): never part of a name. */
const FORMAT = /\p{Cf}/gu;
/** Syllabic scripts written without spaces: each character is transliterated as a syllable of its own. */
const SYLLABIC = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ARABIC_ARTICLE = /^ال(?=\p{L}{2})/u;
/** Scripts that write no short vowels (abjads): their words are compared by consonants alone. */
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
/** An upper-case I between lower-case letters reads as an l (`SokoIov`), the classic evasion. */
const I_FOR_L = /(?<=[a-z])I(?=[a-z])/g;
/**
 * A capital letter after a small one: the start of a word run into the one before; not a word's
 * last letter, which ends an abbreviation written in mixed case (`GmbH`, `SpA`, `KGaA`).
 */
const CAMEL_CASE = /(?<=[a-z])(?=[A-Z].)/g;
const CAMEL_CASE_NOT_I = /[a-z][A-HJ-Z]./;

/**
 * A word with capitals inside it: a name written in words run together (`RiKwangIl`), each capital
 * the start of a word, or a Latin word with an upper-case I for an l (`SokoIov`), the classic
 * evasion; read as the first when another capital starts a word in it.
 */
const camelCaseWords = (word: string): string =>
  CAMEL_CASE_NOT_I.test(word) ? word.replace(CAMEL_CASE, ' ') : word.replace(I_FOR_L, 'l');
/**
 * The Turkish dotted capital I (`İ`) beside a small letter (`Dmİtrİ`, `Putİn`): an i written in
 * capital, which transliterates to `I` and would then be read as an l (`I_FOR_L`); it has a dot,
 * so it never looks like one. Beside capitals (`DMİTRİ`) it stays a capital.
 */
const DOTTED_CAPITAL_I_IN_SMALL_LETTERS = /(?<=\p{Ll})\u0130|\u0130(?=\p{Ll})/gu;
/** Marks that join the letters of one word (`O'Brien`, `Qa'ida`, `S.A.`): dropped, not a separator. */
const JOINING_MARKS = /['’‘`´ʼʻ.]/g;

const HANGUL = /\p{Script=Hangul}/u;
/**
 * A Hangul syllable's Revised Romanization (`any-ascii`: 김 → Gim, 박 → Bak, 정 → Jeong) written
 * as lists write Korean names, after McCune-Reischauer: the voiceless initial (Kim, Pak, Tong),
 * `o` and `u` for the vowels Revised Romanization writes `eo` and `eu` (Jong, Un), `R` for an
 * initial ㄹ (리 → Ri, 류 → Ryu), a final `k` (박 → Pak).
 */
const hangulSyllable = (romanized: string): string =>
  romanized
    .toLowerCase()
    .replace(/^g/, 'k')
    .replace(/^b/, 'p')
    .replace(/^d/, 't')
    .replace(/^l/, 'r')
    .replace(/eo/, 'o')
    .replace(/eu/, 'u')
    .replace(/(?<!n)g$/, 'k');

const GREEK = /\p{Script=Greek}/u;
/**
 * Greek letter pairs read as one sound, which `any-ascii` spells letter by letter (ου → oy,
 * γγ → gg): written as lists romanize them (Αγγελόπουλος → Angelopoulos, Μπαλτάς → Baltas).
 */
const GREEK_DIGRAPHS: readonly (readonly [RegExp, string])[] = [
  [/ου/g, 'ou'],
  [/γγ/g, 'ng'],
  [/γξ/g, 'nx'],
  [/γχ/g, 'nch'],
  [/αυ/g, 'av'],
  [/ευ/g, 'ev'],
  [/^μπ/, 'b'],
  [/^ντ/, 'd'],
];
const greekWord = (word: string): string => {
  let text = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
  for (const [pattern, replacement] of GREEK_DIGRAPHS) text = text.replace(pattern, replacement);
  return text;
};

const HEBREW = /\p{Script=Hebrew}/u;
/**
 * Hebrew letters as the consonants they write in a romanized name (`any-ascii` reads ב and ו both
 * `v` and ש `s`): ו and י are written `w` and `y`, the letters that also stand for vowels (יוסף,
 * Yosef), which the consonant skeleton leaves out; א and ע write no consonant a list keeps.
 */
const HEBREW_LETTERS: Readonly<Record<string, string>> = {
  א: '',
  ב: 'b',
  ג: 'g',
  ד: 'd',
  ה: 'h',
  ו: 'w',
  ז: 'z',
  ח: 'h',
  ט: 't',
  י: 'y',
  כ: 'k',
  ך: 'k',
  ל: 'l',
  מ: 'm',
  ם: 'm',
  נ: 'n',
  ן: 'n',
  ס: 's',
  ע: '',
  פ: 'p',
  ף: 'p',
  צ: 'ts',
  ץ: 'ts',
  ק: 'k',
  ר: 'r',
  ש: 'sh',
  ת: 't',
};
const hebrewWord = (word: string): string =>
  [...word.normalize('NFD').replace(/\p{M}/gu, '')]
    .map((letter) => HEBREW_LETTERS[letter] ?? letter)
    .join('');

/** One word of the name as written (between spaces) in Latin letters, still with its case. */
/** The Arabic article, or `Āl` ("family of"), written apart (آل مكتوم): `al`, as lists write it. */
const ARABIC_ARTICLE_APART = /^[اآأ]ل$/u;

const latinWord = (written: string): string => {
  if (ARABIC_ARTICLE_APART.test(written)) return 'al';
  const confusablesFolded = foldConfusables(written);
  const folded = GREEK.test(confusablesFolded)
    ? greekWord(confusablesFolded)
    : HEBREW.test(confusablesFolded)
      ? hebrewWord(confusablesFolded)
      : confusablesFolded;
  // The Arabic article is written joined (القاعدة); lists write it apart (Al Qaeda, Al-Qa'ida).
  const article = ARABIC_ARTICLE.test(folded) ? 'al ' : '';
  const rest = article === '' ? folded : folded.replace(ARABIC_ARTICLE, '');
  let latin = '';
  for (const character of rest) {
    if (!SYLLABIC.test(character)) latin += character;
    else if (HANGUL.test(character)) latin += ` ${hangulSyllable(anyAscii(character))} `;
    else latin += ` ${anyAscii(character)} `;
  }
  const ascii = anyAscii(latin);
  // The long vowels an abjad writes are transliterated, the short ones are not: none is kept, so
  // that محمد (mhmd) and its romanizations (Muhammad, Mohammed) share their consonants alone.
  return article + (ABJAD.test(written) ? ascii.replace(/[aeiouy]/gi, '') : ascii);
};

/**
 * The words of a name as they are compared: NFKC (fullwidth and mathematical letters), format
 * characters dropped, look-alike letters of another script inside a Latin word folded to the Latin
 * letter they imitate (UTS #39 confusables, `fold-confusables.ts`), every script transliterated
 * to ASCII (`any-ascii`: Дмитрий → dmitriy, 김정은 → gim jeong eun, small capitals ᴅᴍɪᴛʀɪ →
 * dmitri; Arabic and Hebrew as consonants: محمد → mhmd, القاعدة → al qdh), lower-cased;
 * apostrophes and dots dropped (`O'Brien` → `obrien`, `S.A.` → `sa`) and every other run of
 * non-letters a separator. Separators inserted inside a word (`Soko-lov`)
 * are undone by the matcher, which pairs joined and split words.
 */
export const nameWords = (name: string): string[] => writtenWords(name).map((word) => word.text);

/** A normalized word, and whether the name wrote it in Latin letters (not transliterated from another script). */
export type WrittenWord = { readonly text: string; readonly latin: boolean };

const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The Arabic article assimilated to a sun letter (`az-Zawahiri`, `ash-Shabaab`, `ad-Din`,
 * `ur-Rahman`): its consonant is the next word's first, as lists write it `al`.
 */
const SUN_LETTER_ARTICLE = /^[aeu](th|dh|sh|[tdrzsn])$/;
/**
 * Those of the assimilated articles that are no given name or common word when written apart from
 * the next word (`Az Zawahiri`; not `Ed Davis`, `An Nguyen`): read as the article written apart too.
 */
const SUN_LETTER_ARTICLE_APART: ReadonlySet<string> = new Set([
  'az',
  'ez',
  'uz',
  'ash',
  'esh',
  'ush',
  'adh',
  'edh',
  'udh',
  'ath',
  'eth',
  'uth',
  'ud',
  'ur',
]);
/**
 * Particles of Arabic names written in several ways, each read as lists write it: the article
 * (`El`, `ul`, and assimilated, `SUN_LETTER_ARTICLE`) as `al`, `ibn` ("son of") as `bin`. Written
 * otherwise, the particle paired with nothing or as a mere sound-alike, and the listed name scored
 * under the threshold (`Ayman az-Zawahiri`: 66, `Usama ibn Laden`: 59).
 */
const particleOf = (word: string, next: string | undefined, joined: boolean): string => {
  if (word.length > 3 || word.length < 2) return word;
  if (word === 'el' || word === 'ul') return 'al';
  if (word === 'ibn') return 'bin';
  if (next === undefined) return word;
  const sun = SUN_LETTER_ARTICLE.exec(word);
  return sun !== null && next.startsWith(sun[1] as string) && (joined || SUN_LETTER_ARTICLE_APART.has(word))
    ? 'al'
    : word;
};

/**
 * Whether each word of the name being read was written joined to the next (`az-Zawahiri`), not
 * apart from it: scratch space of `writtenWords`, written over by each call (it is synchronous).
 */
const joinedToNext: boolean[] = [];

/**
 * Allah (الله) written apart from the Arabic word before it (عبد الله, نصر الله): one name, which
 * lists romanize as one word (`Abdullah`, `Nasrallah`) and Arabic writes joined as often
 * (عبدالله). Read apart, the article rule made it `al lh` and the name scored 46 against
 * `Abdullah`; joined, it is `bdllh`, whose lam is read once against a romanization's `ll`.
 */
const ALLAH_APART = /(?<=\p{Script=Arabic})\s+(?=[اٱ]لل[\u064B-\u0652\u0670]*ه(?!\p{L}))/gu;

/** Whether a name may read as Korean (`koreanReading`), told without normalizing it again: most names do not. */
const mayBeKoreanName = (name: string): boolean => {
  const words = name
    .trim()
    .toLowerCase()
    .split(/[\s,-]+/u);
  if (words.length === 1) return startsWithKoreanFamilyName(words[0] as string);
  return (
    words.length <= 4 &&
    (isKoreanFamilyName(words[0] as string) || isKoreanFamilyName(words[words.length - 1] as string))
  );
};

/** A word of two parts joined by a hyphen (`Chong-un`): how McCune-Reischauer writes a Korean given name. */
const HYPHENATED = /\p{L}-\p{L}/u;

/** `nameWords`, each with whether it was written in Latin letters. */
export const writtenWords = (name: string): WrittenWord[] => {
  const words: WrittenWord[] = [];
  // Most names of a list are plain ASCII: nothing to fold or transliterate (NFKC leaves them as they are).
  const ascii = PRINTABLE_ASCII.test(name);
  const text = ascii ? name : name.normalize('NFKC').replace(FORMAT, '').replace(ALLAH_APART, '');
  for (const written of text.split(/\s+/u)) {
    if (written === '') continue;
    // Words run together are told apart by their capitals (`VladimirPutin`, `RiKwangIl`): a
    // capital after a small letter starts a word. The matcher joins split words back, so a name
    // written `McDonald` still meets `MCDONALD`.
    const latin = camelCaseWords(
      ascii ? written : latinWord(written.replace(DOTTED_CAPITAL_I_IN_SMALL_LETTERS, 'i')),
    );
    const transliterated = !ascii && NON_LATIN_LETTER.test(foldConfusables(written));
    const first = words.length;
    for (const word of latin
      .toLowerCase()
      .replace(JOINING_MARKS, '')
      .split(/[^a-z0-9]+/)) {
      if (word !== '') {
        joinedToNext[words.length] = true;
        words.push({ text: word, latin: !transliterated });
      }
    }
    if (words.length > first) joinedToNext[words.length - 1] = false;
  }
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at] as WrittenWord;
    const particle = particleOf(word.text, words[at + 1]?.text, joinedToNext[at] === true);
    if (particle !== word.text) words[at] = { ...word, text: particle };
  }
  return words;
};

const I_INSIDE_A_WORD = /(?<=[a-z])I(?=[a-z])/;
/**
 * The name read with each capital I inside a word as the start of a word (`DeepakIyer`: `Deepak
 * Iyer`), when that reads other words than `nameWords`, which takes it for an l when the word has
 * no other capital inside it (`SokoIov`, the classic evasion): both readings are screened.
 */
export const wordStartReading = (name: string): string | undefined => {
  if (!I_INSIDE_A_WORD.test(name)) return undefined;
  const reading = name.replace(I_FOR_L, ' I');
  return normalizeName(reading) === normalizeName(name) ? undefined : reading;
};

/** Characters a name written in plain Latin letters holds: no digit, symbol or other script to read otherwise. */
const PLAIN_LATIN_NAME = /^[A-Za-z\s'’.,-]*$/;

/**
 * The name read with each word in disguise written in the Latin letters it imitates
 * (`lookAlikeWord`: `S0k0l0v`, `Be|ov`, a whole word of Cyrillic capitals `ВЕӀОѴ`), when that reads
 * other words than `nameWords`, which transliterates another script and keeps digits: both
 * readings are screened.
 */
export const lookAlikeReading = (name: string): string | undefined => {
  if (PLAIN_LATIN_NAME.test(name)) return undefined;
  const reading = name.normalize('NFKC').replace(FORMAT, '').split(/(\s+)/u).map(lookAlikeWord).join('');
  return normalizeName(reading) === normalizeName(name) ? undefined : reading;
};

/** A letter alone before a dot and another letter: an initial written against the next (`V.V.`, `В.В.Путин`). */
const INITIAL_BEFORE_A_LETTER = /(?<![\p{L}\p{M}\p{N}])(\p{L}\p{M}*)\.(?=\p{L})/gu;

/**
 * A person's name read with each initial written against the next letter as a word of its own
 * (`Putin V.V.`: `Putin V. V.`, `Иванов С.Б.`, `В.В.Путин`), when it has one: `nameWords` drops
 * the dots that join a word's letters (`S.A.` → `sa`, a company's abbreviation), which read a
 * surname's initials as one word (`vv`) that pairs with no listed name. Both readings are screened.
 */
export const initialsReading = (name: string): string | undefined => {
  if (!name.includes('.')) return undefined;
  const reading = name.replace(INITIAL_BEFORE_A_LETTER, '$1. ');
  return reading === name ? undefined : reading;
};

/**
 * The other readings of a name screened beside `nameWords`' (`wordStartReading`,
 * `lookAlikeReading`, and the first of the second; for a person's name also `initialsReading`
 * of each, and a French transliteration of Russian read the English way,
 * `frenchTransliterationReading`: `Vladimir Poutine` → `vladimir putin`, and a Chinese name in
 * Wade-Giles read in pinyin, `wadeGilesReading`: `Wang Chien-lin` → `wang jianlin`; a Korean
 * name as lists write Korean names, `koreanReading`: `Gim Jeong-eun` → `kim jong un`; a name written
 * letter by letter, `letterSpacedReading`; a digit 1 for an i, `oneForIReading`), each reading
 * other words.
 */
export const otherReadings = (name: string, person = true): string[] => {
  const lookAlike = lookAlikeReading(name);
  const initials = person ? initialsReading(name) : undefined;
  const readings = [
    wordStartReading(name),
    lookAlike,
    lookAlike === undefined ? undefined : wordStartReading(lookAlike),
    initials,
    initials === undefined ? undefined : lookAlikeReading(initials),
    person && FRENCH_MARK.test(name) ? frenchTransliterationReading(nameWords(name)) : undefined,
    person ? wadeGilesReading(name) : undefined,
    letterSpacedReading(name),
    oneForIReading(name),
    person && mayBeKoreanName(name) ? koreanReading(nameWords(name), HYPHENATED.test(name)) : undefined,
  ].filter((reading) => reading !== undefined);
  // Most names have no other reading: they are not normalized once more here.
  if (readings.length === 0) return [];
  const seen = new Set([normalizeName(name)]);
  const other: string[] = [];
  for (const reading of readings) {
    const normalized = normalizeName(reading);
    if (seen.has(normalized)) continue;
    seen.add(normalized);
    other.push(reading);
  }
  return other;
};

/** A name normalized (`nameWords`), its words joined by one space. */
export const normalizeName = (name: string): string => nameWords(name).join(' ');

/** The tokens of a normalized name. */
export const nameTokens = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));
