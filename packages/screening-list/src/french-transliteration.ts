import { romanizationKey } from './phonetic-keys.js';

/**
 * A Russian name transliterated the French way, read the English way lists write it: `ou` for u
 * (`Poutine`), `ch` for sh (`Chostakovitch`), `tch` for ch, `j` for zh (`Jirinovski`), `gu` for a
 * hard g (`Guennadi`), `ss` for an s between vowels (`Vassili`), and a final `e` after a
 * consonant that keeps it sounded (`Poutine`, `Raspoutine`, `Staline`): `poutine` → `putin`.
 *
 * Only a name of Russian form as French writes it (`frenchTransliterationReading`): a word ending
 * as a Russian family name or patronymic does (`RUSSIAN_FORM`: `-ine`, `-ov`, `-ev`, `-ski`,
 * `-itch`…), and a mark of French spelling in the name (`FRENCH_MARK`: `ou`, `tch`, `j`, or an
 * ending English does not write, `-ski`, `-itch`, `-off`): `Vladimir Jirinovski`, `Léonid
 * Brejnev` are read (`Lénine` alone is not: `-ine` ends French given names too, `Sabine`);
 * `Louise García`, `Mitchell Davis`, `Douglas Johnson` are not (their `ou`, `tch` are their own:
 * `Louise` read `luis` was `Luis GARCÍA` word for word). And only when the reading changes a
 * word's romanization key (`ou` alone does not: `Papadopoulos`, `Mahmoud` are
 * read alike already). No package of the registry reads a French transliteration back (they
 * transliterate Cyrillic into one system or another).
 */

/**
 * The marks of a French transliteration of Russian, tested on the name as given (a cheap first
 * test) and on its words: `ou` for u, `tch` for ch, `j` for zh, and the endings French writes and
 * English does not (`-ski` for -sky, `-itch` for -ich, `-ief`, `-off`, `-eff`). Not `-ine` for -in
 * (`Poutine`): French given names end so (`Sabine`, `Christine`), and `Sabine Ficher` was read
 * `sabin fisher`; `-ine` is a Russian form, which a mark must come with.
 */
export const FRENCH_MARK = /ou|tch|j|(?:ski|itch|ief|off|eff)\b/i;
/** A word of the form of a Russian family name or patronymic, in French or English spelling. */
const RUSSIAN_FORM = /(?:ine|yne|ov|ev|ief|off|eff|ski|sky|itch|ovna|evna|enko|ouk)$/;

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
 * The words of a name (normalized) read as an English transliteration of Russian when a word has a
 * Russian form and some word bears the marks of a French spelling (`vladimir poutine` → `vladimir
 * putin`, `vladimir jirinovski` → `vladimir zhirinovski`), or undefined otherwise or when the
 * reading is the same.
 */
export const frenchTransliterationReading = (words: readonly string[]): string | undefined => {
  if (!words.some((word) => RUSSIAN_FORM.test(word)) || !words.some((word) => FRENCH_MARK.test(word)))
    return undefined;
  const read = words.map(englishWord);
  return read.every((word, at) => romanizationKey(word) === romanizationKey(words[at] as string))
    ? undefined
    : read.join(' ');
};
