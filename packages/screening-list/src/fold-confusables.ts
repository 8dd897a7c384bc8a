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

const ASCII_LETTER = /[A-Za-z]/;
const LOWER_CASE_LETTER = /\p{Ll}/u;

/**
 * A word as it reads to the eye: each character that is no ASCII letter but that Unicode's
 * confusables map to ASCII letters (a digit `0` or `1`, a `|`, a Cyrillic `Ѕ`, a Greek `Ο`) becomes
 * them, in the case of the letter it stands for (a caseless digit in the word's case: `S0k0l0v` →
 * `Sokolov`, `SMIRN0V` → `SMIRNOV`). A word holding an ASCII letter is read so character by
 * character (`Be1ov`); a word of none only when every character reads as Latin letters (`ВЕӀОѴ` →
 * `BELOV`): a word wholly of another script that does not is a word of that script (`Белов`).
 */
export const lookAlikeWord = (word: string): string => {
  const lowerCaseWord = LOWER_CASE_LETTER.test(word);
  let read = '';
  let whole = true;
  for (const character of word) {
    if (ASCII_LETTER.test(character)) {
      read += character;
      continue;
    }
    const prototype = unhomoglyph(character);
    if (!ASCII_LETTERS.test(prototype)) {
      read += character;
      whole = false;
      continue;
    }
    const upper =
      character !== character.toLowerCase() || (character === character.toUpperCase() && !lowerCaseWord);
    read += upper ? prototype.toUpperCase() : prototype.toLowerCase();
  }
  return whole || ASCII_LETTER.test(word) ? read : word;
};

/** A digit 1 beside a letter, inside a word (`Vlad1mir`, `Put1n`). */
const ONE_IN_A_WORD = /(?<=\p{L})1|1(?=\p{L})/gu;

/**
 * The name read with each digit 1 inside a word as an i (`Vlad1mir Put1n` → `Vladimir Putin`):
 * Unicode's confusables read it as an l (`lookAlikeWord`: `Be1ov`), which leaves a name whose every
 * word hides an i one slip from each listed word, too far in all. Undefined when it has none.
 */
export const oneForIReading = (name: string): string | undefined => {
  const reading = name.replace(ONE_IN_A_WORD, 'i');
  return reading === name ? undefined : reading;
};
