import { romanizationKey } from './phonetic-keys.js';

/**
 * A Russian name transliterated the French way, read the English way lists write it: `ou` for u
 * (`Poutine`), `ch` for sh (`Chostakovitch`), `tch` for ch, `j` for zh (`Jirinovski`), `gu` for a
 * hard g (`Guennadi`), `ss` for an s between vowels (`Vassili`), and a final `e` after a
 * consonant that keeps it sounded (`Poutine`, `Raspoutine`, `Staline`): `poutine` → `putin`.
 *
 * Only a name with a word written with `ou` or `tch` (`FRENCH_MARK`, tested on the name as given
 * before it is normalized), and only when the reading changes a word's romanization key (`ou` alone
 * does not: `Papadopoulos`, `Mahmoud` are read alike already). No package of the registry reads a
 * French transliteration back (they transliterate Cyrillic into one system or another).
 */

/** The marks of a French transliteration: `ou` for u, `tch` for ch. */
export const FRENCH_MARK = /ou|tch/i;

/** A word of a French transliteration written as English transliterations write it. */
const englishWord = (word: string): string =>
  word
    .replace(/(?<!t)ch/g, 'sh')
    .replace(/tch/g, 'ch')
    .replace(/ou/g, 'u')
    .replace(/j/g, 'zh')
    .replace(/gu(?=[eiy])/g, 'g')
    .replace(/(?<=[aeiouy])ss(?=[aeiouy])/g, 's')
    .replace(/(?<=[aeiouy][b-df-hj-np-tv-z])e$/, '');

/**
 * The words of a name (normalized) read as an English transliteration of Russian when some word
 * bears the marks of a French one (`vladimir poutine` → `vladimir putin`), or undefined when none
 * does or the reading is the same.
 */
export const frenchTransliterationReading = (words: readonly string[]): string | undefined => {
  if (!words.some((word) => FRENCH_MARK.test(word))) return undefined;
  const read = words.map(englishWord);
  return read.every((word, at) => romanizationKey(word) === romanizationKey(words[at] as string))
    ? undefined
    : read.join(' ');
};
