import type { ScreeningTokenMatch } from '@onboarding-kit/core/adapter';
import { distance } from 'fastest-levenshtein';
import { isLegalForm } from './legal-forms.js';
import { consonantSkeleton, isVowelless, metaphoneCodes, vowelPattern } from './phonetic-keys.js';

/** A normalized word with the keys it is compared by, computed once (for a listed word, at load). */
export type WordForms = {
  readonly text: string;
  readonly skeleton: string;
  readonly vowelPattern: string;
  readonly metaphone: string;
  readonly metaphoneAlternate: string;
  readonly vowelless: boolean;
};

export const wordForms = (text: string): WordForms => {
  const [metaphone, metaphoneAlternate] = isLegalForm(text) ? ['', ''] : metaphoneCodes(text);
  return {
    text,
    skeleton: isLegalForm(text) ? text : consonantSkeleton(text),
    vowelPattern: isLegalForm(text) ? text : vowelPattern(text),
    metaphone,
    metaphoneAlternate,
    vowelless: isVowelless(text),
  };
};

export type WordSimilarity = { readonly kind: ScreeningTokenMatch['kind']; readonly similarity: number };

/** Spelling edits tolerated in a word of this many letters (its shorter side): none below 4. */
const toleratedEdits = (length: number): number => (length >= 13 ? 3 : length >= 9 ? 2 : length >= 5 ? 1 : 0);

const sameMetaphone = (a: WordForms, b: WordForms): boolean =>
  a.metaphone.length >= 2 &&
  (a.metaphone === b.metaphone ||
    a.metaphone === b.metaphoneAlternate ||
    a.metaphoneAlternate === b.metaphone);

/**
 * How alike two words are, or null when they are not the same word in any sense a reviewer would
 * accept: the same word (1); one a romanization of the other: the same but for its vowels
 * (`mohammed` / `muhammad` 0.91, `gim` / `kim`), the same Double Metaphone code and length within
 * two letters (`aleksandr` / `alexander`), or the same consonants when one is written without
 * vowels (`mhmd` / `muhammad`, 0.95); a spelling variant within a few edits for its length
 * (`navalnyy` / `navalny` 0.88; none for words under 5 letters, nor on the first letter of a word under 7); an initial (`j` / `john`, 0.75);
 * two legal forms (1 in the same family, 0.7 otherwise).
 */
export const wordSimilarity = (a: WordForms, b: WordForms): WordSimilarity | null => {
  if (a.text === b.text) return { kind: isLegalForm(a.text) ? 'LEGAL_FORM' : 'EXACT', similarity: 1 };
  const legal = isLegalForm(a.text);
  if (legal || isLegalForm(b.text))
    return legal && isLegalForm(b.text) ? { kind: 'LEGAL_FORM', similarity: 0.7 } : null;
  if (a.text.length === 1 || b.text.length === 1) {
    const [initial, word] = a.text.length === 1 ? [a.text, b.text] : [b.text, a.text];
    return word.length > 1 && word.startsWith(initial) && /[a-z]/.test(initial)
      ? { kind: 'INITIAL', similarity: 0.75 }
      : null;
  }
  const edits = distance(a.text, b.text);
  const longest = Math.max(a.text.length, b.text.length);
  const spelling = 1 - edits / longest;
  let phonetic = 0;
  if ((a.vowelless || b.vowelless) && a.skeleton.length >= 2 && a.skeleton === b.skeleton) {
    // All a script without short vowels writes is the same: as alike as the script can say.
    phonetic = 0.95;
  } else if (a.vowelPattern === b.vowelPattern) {
    phonetic = 0.85 + 0.1 * spelling;
  } else if (sameMetaphone(a, b) && Math.abs(a.text.length - b.text.length) <= 1 && spelling >= 0.65) {
    phonetic = 0.8 + 0.1 * spelling;
  }
  const shorter = Math.min(a.text.length, b.text.length);
  // A short word with another first letter is another name (`rami` / `raji` is a spelling
  // variant, `badin` / `hadin` is not): a typo rarely falls on the first letter.
  const spelled =
    edits <= toleratedEdits(shorter) && (shorter >= 7 || a.text.charAt(0) === b.text.charAt(0))
      ? spelling
      : 0;
  if (phonetic === 0 && spelled === 0) return null;
  return phonetic >= spelled
    ? { kind: 'PHONETIC', similarity: phonetic }
    : { kind: 'SPELLING', similarity: spelled };
};
