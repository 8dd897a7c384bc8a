import unhomoglyph from 'unhomoglyph';

const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_LETTER = /(?!\p{Script=Latin})\p{L}/u;
const ASCII_LETTERS = /^[A-Za-z]+$/;

/**
 * A word mixing Latin letters with letters of another script (`ᏚokoIov`: a Cherokee Ꮪ; `Ѕokolov`:
 * a Cyrillic Ѕ) is a Latin word in disguise: each letter of the other script that Unicode's
 * confusables (UTS #39, `unhomoglyph`'s table) map to Latin letters becomes them. A word written
 * wholly in one script is left as it is (Соколов is transliterated, not read as Latin look-alikes),
 * and Latin letters are never changed (`m` stays `m`, though the table maps it to `rn`): names a
 * person reads as different stay different.
 */
export const foldConfusables = (word: string): string => {
  if (!LATIN_LETTER.test(word) || !OTHER_LETTER.test(word)) return word;
  let folded = '';
  for (const character of word) {
    if (!OTHER_LETTER.test(character)) {
      folded += character;
      continue;
    }
    const prototype = unhomoglyph(character);
    folded += ASCII_LETTERS.test(prototype) ? prototype : character;
  }
  return folded;
};
