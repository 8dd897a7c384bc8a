import type { ScreeningTokenMatch } from '@onboarding-kit/core/adapter';
import { distance } from 'fastest-levenshtein';
import { areKeyboardNeighbours } from './keyboard-neighbours.js';
import { isLegalForm } from './legal-forms.js';
import {
  consonantSkeletons,
  isVowelless,
  metaphoneCodes,
  romanizationKey,
  vowelPattern,
} from './phonetic-keys.js';

/** A normalized word with the keys it is compared by, computed once (for a listed word, at load). */
export type WordForms = {
  readonly text: string;
  /** Its consonant skeleton(s) (`consonantSkeletons`): the first, and without `v` when it has one. */
  readonly skeletons: readonly string[];
  readonly skeleton: string;
  readonly romanized: string;
  readonly vowelPattern: string;
  readonly metaphone: string;
  readonly metaphoneAlternate: string;
  readonly vowelless: boolean;
};

export const wordForms = (text: string): WordForms => {
  const legal = isLegalForm(text);
  const [metaphone, metaphoneAlternate] = legal ? ['', ''] : metaphoneCodes(text);
  const skeletons = legal ? [text] : consonantSkeletons(text);
  return {
    text,
    skeletons,
    skeleton: skeletons[0] as string,
    romanized: legal ? text : romanizationKey(text),
    vowelPattern: legal ? text : vowelPattern(text),
    metaphone,
    metaphoneAlternate,
    vowelless: isVowelless(text),
  };
};

export type WordSimilarity = { readonly kind: ScreeningTokenMatch['kind']; readonly similarity: number };

/** A word alike in sound only (another vowel, the same Double Metaphone code) counts this much, and a little more the closer its spelling. */
const SOUND_ALIKE = 0.65;

/** An abjad word and a romanization whose skeletons are one and the same consonant. */
const ONE_CONSONANT_ALIKE: WordSimilarity = { kind: 'PHONETIC', similarity: 0.8 };
// The similarities that are constants, made once (a query compares thousands of pairs of words).
const SAME_WORD: WordSimilarity = { kind: 'EXACT', similarity: 1 };
const SAME_LEGAL_FORM: WordSimilarity = { kind: 'LEGAL_FORM', similarity: 1 };
const OTHER_LEGAL_FORM: WordSimilarity = { kind: 'LEGAL_FORM', similarity: 0.7 };
const AN_INITIAL: WordSimilarity = { kind: 'INITIAL', similarity: 0.75 };
const SAME_CONSONANTS: WordSimilarity = { kind: 'PHONETIC', similarity: 0.95 };
const shortest = (a: WordForms, b: WordForms): number => Math.min(a.text.length, b.text.length);
/** Whether the two words' skeletons (one of them without its `v`: לוי, `lw`, and `levi`) are one consonant. */
const oneConsonant = (a: WordForms, b: WordForms): boolean => {
  for (const skeleton of a.skeletons)
    if (skeleton.length === 1 && b.skeletons.includes(skeleton)) return true;
  return false;
};

/**
 * A short word (two to five letters: `van`, `thi`, `song`, `phuoc`) with a letter left out of it
 * (`va`, `ti`, `son`, `huoc`): in a name whose other words agree, a slip more often than another
 * name; it counts this much.
 */
const SHORT_WORD_DROP: WordSimilarity = { kind: 'SPELLING', similarity: 0.7 };
const MAX_SHORT_WORD = 5;
/** Whether the screened word is the listed one, short, with one letter left out. */
export const droppedFromShort = (screened: string, listed: string): boolean =>
  screened.length >= 2 &&
  listed.length <= MAX_SHORT_WORD &&
  screened.length + 1 === listed.length &&
  distance(screened, listed) === 1;

/**
 * Whether one letter is a slip for the other: typed from a neighbouring key, or read as it (`l`
 * for `i`: a digit `1` for an i reads as an l, `Put1n`, as Unicode's confusables say it does).
 */
const slipOf = (a: string, b: string): boolean =>
  areKeyboardNeighbours(a, b) || (a === 'i' && b === 'l') || (a === 'l' && b === 'i');

/** Whether two words of one length differ by one letter, typed from a key far from the other's. */
const farSubstitution = (a: string, b: string): boolean => {
  let differing = -1;
  for (let at = 0; at < a.length; at += 1) {
    if (a.charCodeAt(at) === b.charCodeAt(at)) continue;
    // Two letters differing: a swap (`jnoes`), a slip of its own kind.
    if (differing >= 0) return false;
    differing = at;
  }
  return differing >= 0 && !slipOf(a.charAt(differing), b.charAt(differing));
};

/** Whether two words of one length differ by two letters, neither typed from a key next to the other's. */
const farSubstitutions = (a: string, b: string): boolean => {
  let differing = 0;
  for (let at = 0; at < a.length; at += 1) {
    if (a.charCodeAt(at) === b.charCodeAt(at)) continue;
    if (slipOf(a.charAt(at), b.charAt(at))) return false;
    differing += 1;
  }
  return differing === 2;
};

/**
 * Whether one word is the other with a letter added before it (`oupouge` / `poupouge`): a slip
 * rarely falls on a word's first letter, but `y` or `j` before a vowel is a romanization of
 * Cyrillic Е, Ю, Я (`ermakov` / `yermakov`, `elena` / `jelena`), not a slip.
 */
const firstLetterAddedOrDropped = (a: string, b: string): boolean => {
  if (Math.abs(a.length - b.length) !== 1 || a.charAt(0) === b.charAt(0)) return false;
  const longer = a.length > b.length ? a : b;
  if (!longer.endsWith(a.length > b.length ? b : a)) return false;
  return !/^[yj][aeiou]/.test(longer);
};

/** A word of this many letters or more: a slip on its first letter or on a vowel is still a slip. */
const LONG_WORD = 7;

/**
 * Whether the screened word (four letters) is the listed one (five) with a letter dropped inside
 * it (`bial` / `bilal`); not one with a letter more (`kratz` is not `katz`).
 */
const droppedInside = (screened: string, listed: string): boolean =>
  screened.length === 4 &&
  listed.length === 5 &&
  screened.charAt(0) === listed.charAt(0) &&
  screened.charAt(3) === listed.charAt(4) &&
  distance(screened, listed) === 1;

/** Spelling edits tolerated in a word of this many letters (its shorter side): none below 4. */
const toleratedEdits = (length: number): number => (length >= 13 ? 3 : length >= 9 ? 2 : length >= 5 ? 1 : 0);

const sameMetaphone = (a: WordForms, b: WordForms): boolean =>
  a.metaphone.length >= 2 &&
  (a.metaphone === b.metaphone ||
    a.metaphone === b.metaphoneAlternate ||
    a.metaphoneAlternate === b.metaphone);

const sameSkeleton = (a: WordForms, b: WordForms): boolean => {
  for (const skeleton of a.skeletons) {
    if (skeleton.length >= 2 && b.skeletons.includes(skeleton)) return true;
  }
  return false;
};

/**
 * Edits between two words, a swap of two adjacent letters one edit (`jnoes` / `jones`: a typing
 * slip, which Levenshtein's distance counts two).
 */
export const spellingEdits = (a: string, b: string): number => {
  const edits = distance(a, b);
  if (edits < 2 || a.length !== b.length) return edits;
  let at = 0;
  while (at < a.length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  if (a.charAt(at) !== b.charAt(at + 1) || a.charAt(at + 1) !== b.charAt(at)) return edits;
  return Math.min(edits, 1 + spellingEdits(a.slice(at + 2), b.slice(at + 2)));
};

/**
 * How alike two words are, or null when they are not the same word in any sense a reviewer would
 * accept: the same word (1); one a romanization of the other: the same when romanizations are
 * read alike (`romanizationKey`: `vasilyev` / `vasiliev` 0.99, `yermakov` / `ermakov`), the same
 * consonants when one is written without vowels (`mhmd` / `muhammad`, 0.95); a spelling variant
 * within a few edits for its length, a swap of two letters one edit (`navalnyy` / `navalny` 0.88,
 * `jnoes` / `jones` 0.8; none for words under 5 letters, nor on the first letter of a word under
 * 7, nor a letter added before a word, nor two letters typed from far keys); the same but for another vowel, or the same Double Metaphone code (`mohammed` / `muhammad`
 * 0.71, `aleksandr` / `alexander`): alike in sound, but as often another name (`belov` / `balov`),
 * so they count less; an initial (`j` / `john`, 0.75); two legal forms (1 in the same family, 0.7
 * otherwise).
 */
export const wordSimilarity = (a: WordForms, b: WordForms): WordSimilarity | null => {
  if (a.text === b.text) return isLegalForm(a.text) ? SAME_LEGAL_FORM : SAME_WORD;
  const legal = isLegalForm(a.text);
  if (legal || isLegalForm(b.text)) return legal && isLegalForm(b.text) ? OTHER_LEGAL_FORM : null;
  if (a.text.length === 1 || b.text.length === 1) {
    const [initial, word] = a.text.length === 1 ? [a.text, b.text] : [b.text, a.text];
    return word.length > 1 && word.startsWith(initial) && /[a-z]/.test(initial) ? AN_INITIAL : null;
  }
  if ((a.vowelless || b.vowelless) && a.vowelless !== b.vowelless) {
    // All a script without short vowels writes is the same: as alike as the script can say.
    if (sameSkeleton(a, b)) return SAME_CONSONANTS;
    // A name of one strong consonant among the letters an abjad writes for vowels (אליהו, `lhw`,
    // and `eliyahu` are both `l`; לוי, `lw`, and `levi` read without its `v`): alike, but the
    // script says less.
    if (oneConsonant(a, b) && shortest(a, b) >= 2) return ONE_CONSONANT_ALIKE;
  }
  const shorter = Math.min(a.text.length, b.text.length);
  const longest = Math.max(a.text.length, b.text.length);
  const romanized = a.romanized === b.romanized;
  const otherVowels = a.vowelPattern === b.vowelPattern;
  const metaphone = sameMetaphone(a, b) && longest - shorter <= 1;
  const dropped = longest <= MAX_SHORT_WORD && droppedFromShort(a.text, b.text);
  // Most pairs of words are alike in no sense: told apart by their lengths, without a distance.
  if (
    !dropped &&
    !romanized &&
    !otherVowels &&
    !metaphone &&
    (shorter < 4 ||
      (shorter === 4 && longest !== 5) ||
      longest - shorter > Math.max(1, toleratedEdits(shorter)))
  )
    return null;
  const edits = spellingEdits(a.text, b.text);
  // One letter typed for another: a slip only from a neighbouring key (`chermit` / `chermir`);
  // another vowel is then alike in sound at most, another consonant another name (`guezgasno` /
  // `guezgasro`), unless the romanizations agree (above).
  // Two letters typed for others, neither from a neighbouring key (`turcelter` / `turgulter`): two
  // slips in one word, both far, are another name far more often.
  const farKey =
    a.text.length === b.text.length &&
    ((edits === 1 && farSubstitution(a.text, b.text)) || (edits === 2 && farSubstitutions(a.text, b.text)));
  const spelling = 1 - edits / longest;
  let phonetic = 0;
  if (romanized) {
    phonetic = 0.9 + 0.1 * spelling;
  } else if (otherVowels || (metaphone && spelling >= 0.65)) {
    phonetic = SOUND_ALIKE + 0.1 * spelling;
  }
  // A short word with another first letter is another name (`rami` / `raji` is a spelling
  // variant, `badin` / `hadin` is not): a typo rarely falls on the first letter. In a short word,
  // another vowel where the romanizations agree is another name as often as a typo (`belov` /
  // `balov`): it counts as alike in sound, not as a misspelling; in a long one it is a slip
  // (`gardrigiez`). A screened word of four letters may be a listed five-letter one with a letter
  // dropped inside it (`bial` / `bilal`, `pvel` / `pavel`), not at its end (`ivan` / `ivana`).
  // `a` is the screened word, `b` the listed one, wherever this is called.
  const spelled =
    !farKey &&
    (!otherVowels || shorter >= LONG_WORD) &&
    (edits <= toleratedEdits(shorter) || (edits === 1 && droppedInside(a.text, b.text))) &&
    (shorter >= LONG_WORD || a.text.charAt(0) === b.text.charAt(0)) &&
    !firstLetterAddedOrDropped(a.text, b.text)
      ? spelling
      : 0;
  if (phonetic === 0 && spelled === 0) return dropped ? SHORT_WORD_DROP : null;
  return phonetic >= spelled
    ? { kind: 'PHONETIC', similarity: phonetic }
    : { kind: 'SPELLING', similarity: spelled };
};
