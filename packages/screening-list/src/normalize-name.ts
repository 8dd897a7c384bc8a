import anyAscii from 'any-ascii';
import { foldConfusables } from './fold-confusables.js';

/** Format characters (zero-width joiners and spaces, bidirectional marks, soft hyphens): never part of a name. */
const FORMAT = /\p{Cf}/gu;
/** Syllabic scripts written without spaces: each character is transliterated as a syllable of its own. */
const SYLLABIC = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ARABIC_ARTICLE = /^ال(?=\p{L}{2})/u;
/** Scripts that write no short vowels (abjads): their words are compared by consonants alone. */
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
/** An upper-case I between lower-case letters reads as an l (`SokoIov`), the classic evasion. */
const I_FOR_L = /(?<=[a-z])I(?=[a-z])/g;
/** Marks that join the letters of one word (`O'Brien`, `Qa'ida`, `S.A.`): dropped, not a separator. */
const JOINING_MARKS = /['’‘`´ʼʻ.]/g;

const HANGUL = /\p{Script=Hangul}/u;
/**
 * A Hangul syllable's Revised Romanization (`any-ascii`: 김 → Gim, 박 → Bak) with the voiceless
 * initial that lists write, after McCune-Reischauer (Kim, Pak, Tong).
 */
const hangulSyllable = (romanized: string): string =>
  romanized.replace(/^G/, 'K').replace(/^B/, 'P').replace(/^D/, 'T');

/** One word of the name as written (between spaces) in Latin letters, still with its case. */
const latinWord = (word: string): string => {
  const folded = foldConfusables(word);
  // The Arabic article is written joined (القاعدة); lists write it apart (Al Qaeda, Al-Qa'ida).
  const article = ARABIC_ARTICLE.test(folded) ? 'al ' : '';
  const rest = article === '' ? folded : folded.replace(ARABIC_ARTICLE, '');
  let latin = '';
  for (const character of rest) {
    if (!SYLLABIC.test(character)) latin += character;
    else if (HANGUL.test(character)) latin += ` ${hangulSyllable(anyAscii(character))} `;
    else latin += ` ${anyAscii(character)} `;
  }
  const ascii = anyAscii(latin).replace(I_FOR_L, 'l');
  // The long vowels an abjad writes are transliterated, the short ones are not: none is kept, so
  // that محمد (mhmd) and its romanizations (Muhammad, Mohammed) share their consonants alone.
  return article + (ABJAD.test(rest) ? ascii.replace(/[aeiouy]/gi, '') : ascii);
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

/** `nameWords`, each with whether it was written in Latin letters. */
export const writtenWords = (name: string): WrittenWord[] => {
  const words: WrittenWord[] = [];
  // Most names of a list are plain ASCII: nothing to fold or transliterate (NFKC leaves them as they are).
  const ascii = PRINTABLE_ASCII.test(name);
  for (const written of (ascii ? name : name.normalize('NFKC').replace(FORMAT, '')).split(/\s+/u)) {
    if (written === '') continue;
    const latin = ascii ? written.replace(I_FOR_L, 'l') : latinWord(written);
    const transliterated = !ascii && NON_LATIN_LETTER.test(foldConfusables(written));
    for (const word of latin
      .toLowerCase()
      .replace(JOINING_MARKS, '')
      .split(/[^a-z0-9]+/)) {
      if (word !== '') words.push({ text: word, latin: !transliterated });
    }
  }
  return words;
};

/** A name normalized (`nameWords`), its words joined by one space. */
export const normalizeName = (name: string): string => nameWords(name).join(' ');

/** The tokens of a normalized name. */
export const nameTokens = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));
