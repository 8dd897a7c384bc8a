import type { ScreeningTokenMatch } from '@onboarding-kit/core/adapter';
import { distance } from 'fastest-levenshtein';
import { isLegalForm } from './legal-forms.js';
import { type WordForms, type WordSimilarity, wordSimilarity } from './word-similarity.js';

/** A word of a name with its weight: how rare it is on the list (`name-index.ts`). */
export type WeightedWord = {
  readonly forms: WordForms;
  readonly weight: number;
  /**
   * Whether the word is itself a word of the list, as the client wrote it (in Latin letters: a
   * transliteration's spelling is the transliterator's, not a name of its own).
   */
  readonly known: boolean;
};

/**
 * A screened word that is itself a word of the list, paired with another only by sound or
 * spelling, counts for this much of its similarity: it is more likely that other name (`mira` for
 * `miri`, `shara` for `shari`) than a misspelling, which is rarely a listed name of its own. Not
 * when the two are one romanization (`holding` / `kholding`): that is the same word.
 */
const KNOWN_VARIANT_FACTOR = 0.8;

/** Which words of two names were paired, how, and which were left over. */
export type NamePairing = {
  readonly tokens: ScreeningTokenMatch[];
  readonly unmatchedSubject: string[];
  readonly unmatchedListed: string[];
};

/** How two names compare: a score 0..1 and what it is made of. */
export type NameScore = {
  readonly score: number;
  /** Every word of both names paired with the same word (`EXACT` or `LEGAL_FORM`), none left over. */
  readonly exact: boolean;
  /** The pairing, written out only for a name worth explaining (most candidates are not a match). */
  explain(): NamePairing;
};

/**
 * A patronymic (`ivanovich`, `sergeyevna`, `ogly`) left over on either side weighs this much of its
 * rarity: it names the father, not the person, and a client gives it or not as the form asks
 * (`Ivan Frolov` is `Ivan Sergeyevich Frolov` as far as the names can tell).
 */
const PATRONYMIC_LEFT_OVER = 0.4;
const PATRONYMIC =
  /^[a-z]{3,}(?:ovich|evich|ovych|evych|ovna|evna|ichna|yevich|yevna)$|^(?:ogly|oglu|ogli|kyzy|qizi|gizi)$/;
const leftOverWeight = (word: WeightedWord): number =>
  PATRONYMIC.test(word.forms.text) ? word.weight * PATRONYMIC_LEFT_OVER : word.weight;

/** Words joined or split: at most this many adjacent words form one (`dmi tri` / `dmitri`). */
const MAX_SPAN = 3;

type Span = { readonly at: readonly number[]; readonly text: string };
const single = (at: number, text: string): Span => ({ at: [at], text });
type Pair = {
  readonly subject: Span;
  readonly listed: Span;
  readonly similarity: WordSimilarity;
  readonly weight: number;
};

/**
 * Runs of adjacent words of one name that may be a word of the other joined: those starting with a
 * word whose first two letters begin a longer word of the other (`dmi tri` / `dmitri`).
 */
const spansOf = (words: readonly WeightedWord[], other: readonly WeightedWord[]): Span[] => {
  const spans: Span[] = [];
  for (let from = 0; from < words.length; from += 1) {
    const first = (words[from] as WeightedWord).forms.text;
    const head = first.slice(0, 2);
    if (!other.some((word) => word.forms.text.length > first.length && word.forms.text.startsWith(head)))
      continue;
    let text = '';
    for (let to = from; to < Math.min(words.length, from + MAX_SPAN); to += 1) {
      const word = words[to]?.forms.text as string;
      if (isLegalForm(word)) break;
      text += word;
      if (to > from) spans.push({ at: Array.from({ length: to - from + 1 }, (_, i) => from + i), text });
    }
  }
  return spans;
};

const weightOf = (words: readonly WeightedWord[], span: Span): number => {
  let weight = 0;
  for (const at of span.at) weight += words[at]?.weight ?? 0;
  return weight;
};

/** Words joined or split alike: the same letters, or a spelling variant as a single word would be. */
const joinedSimilarity = (a: string, b: string): WordSimilarity | null => {
  if (a === b) return { kind: 'JOINED', similarity: 1 };
  const shorter = Math.min(a.length, b.length);
  if (shorter < 7 || Math.abs(a.length - b.length) > 2) return null;
  const edits = distance(a, b);
  return edits <= (shorter >= 11 ? 2 : 1)
    ? { kind: 'JOINED', similarity: 1 - edits / Math.max(a.length, b.length) }
    : null;
};

/**
 * Scores a screened name against a listed one. Every word (and every run of up to three adjacent
 * words, joined: `dmi tri` / `dmitri`, `vladimir putin` / `vladimirputin`) of one name is compared
 * with every word of the other (`word-similarity.ts`), whatever their order; the pairs are then
 * chosen best first, each word in one pair at most (a greedy assignment: names have few words).
 *
 * Each side's coverage is the weight of its words paired (times how alike the pair is) over the
 * weight of all its words, a word weighing by its rarity on the list: `mohammed` or a legal form
 * little, a rare surname much. The score is the better coverage times 0.6 + 0.4 × the other: a
 * name whose every word is found scores at least 0.6, and then more the fewer words the other side
 * has left over (a missing middle name costs little, a second surname more). One shared word
 * between two names of two words or more is never more than 0.6.
 */
export const scoreName = (subject: readonly WeightedWord[], listed: readonly WeightedWord[]): NameScore => {
  const pairs: Pair[] = [];
  for (let s = 0; s < subject.length; s += 1) {
    const subjectWord = subject[s] as WeightedWord;
    for (let l = 0; l < listed.length; l += 1) {
      const listedWord = listed[l] as WeightedWord;
      const found = wordSimilarity(subjectWord.forms, listedWord.forms);
      if (found === null) continue;
      const similarity =
        subjectWord.known &&
        !subjectWord.forms.vowelless &&
        (found.kind === 'PHONETIC' || found.kind === 'SPELLING') &&
        subjectWord.forms.romanized !== listedWord.forms.romanized
          ? { kind: found.kind, similarity: found.similarity * KNOWN_VARIANT_FACTOR }
          : found;
      pairs.push({
        subject: single(s, subjectWord.forms.text),
        listed: single(l, listedWord.forms.text),
        similarity,
        weight: listedWord.weight,
      });
    }
  }
  const subjectSpans = spansOf(subject, listed);
  const listedSpans = spansOf(listed, subject);
  for (const span of subjectSpans) {
    for (let l = 0; l < listed.length; l += 1) {
      const listedWord = listed[l] as WeightedWord;
      const similarity = joinedSimilarity(span.text, listedWord.forms.text);
      if (similarity === null) continue;
      pairs.push({
        subject: span,
        listed: single(l, listedWord.forms.text),
        similarity,
        weight: listedWord.weight,
      });
    }
  }
  for (const span of listedSpans) {
    for (let s = 0; s < subject.length; s += 1) {
      const subjectWord = subject[s] as WeightedWord;
      const similarity = joinedSimilarity(subjectWord.forms.text, span.text);
      if (similarity === null) continue;
      pairs.push({
        subject: single(s, subjectWord.forms.text),
        listed: span,
        similarity,
        weight: weightOf(listed, span),
      });
    }
  }
  // A word of one side that is two words of the other joined, whatever their order and place
  // (`vladimirputin` / `vladimir vladimirovich putin`).
  const joinedAnyOrder = (
    word: string,
    other: readonly WeightedWord[],
    onto: (first: number, second: number, similarity: WordSimilarity) => void,
  ) => {
    if (word.length < 4) return;
    for (let first = 0; first < other.length; first += 1) {
      const head = other[first]?.forms.text as string;
      if (!word.startsWith(head) || isLegalForm(head)) continue;
      for (let second = 0; second < other.length; second += 1) {
        if (second === first || Math.abs(second - first) === 1) continue;
        if (word === head + (other[second]?.forms.text as string))
          onto(first, second, { kind: 'JOINED', similarity: 1 });
      }
    }
  };
  for (let s = 0; s < subject.length; s += 1) {
    const text = subject[s]?.forms.text as string;
    joinedAnyOrder(text, listed, (first, second, similarity) => {
      const span = { at: [first, second], text };
      pairs.push({ subject: single(s, text), listed: span, similarity, weight: weightOf(listed, span) });
    });
  }
  for (let l = 0; l < listed.length; l += 1) {
    const text = listed[l]?.forms.text as string;
    joinedAnyOrder(text, subject, (first, second, similarity) =>
      pairs.push({
        subject: { at: [first, second], text },
        listed: single(l, text),
        similarity,
        weight: listed[l]?.weight ?? 0,
      }),
    );
  }

  // Best pairs first: the most alike, then the heaviest (a joined pair covers several words).
  pairs.sort(
    (a, b) =>
      b.similarity.similarity * b.weight - a.similarity.similarity * a.weight ||
      b.similarity.similarity - a.similarity.similarity,
  );
  // Which words are paired (plain arrays: a typed array costs more to make than a name has words).
  const subjectUsed: number[] = subject.map(() => 0);
  const listedUsed: number[] = listed.map(() => 0);
  const chosen: Pair[] = [];
  const free = (used: readonly number[], span: Span) => {
    for (const at of span.at) if (used[at] === 1) return false;
    return true;
  };
  for (const pair of pairs) {
    if (!free(subjectUsed, pair.subject) || !free(listedUsed, pair.listed)) continue;
    for (const at of pair.subject.at) subjectUsed[at] = 1;
    for (const at of pair.listed.at) listedUsed[at] = 1;
    chosen.push(pair);
  }

  // A paired subject word weighs as the listed word(s) it was paired with (an unknown spelling of
  // a common name is still a common name); an unpaired one by its own rarity.
  let matched = 0;
  let pairedWeight = 0;
  for (const pair of chosen) {
    matched += pair.similarity.similarity * pair.weight;
    pairedWeight += pair.weight;
  }
  let subjectLeft = 0;
  let subjectAllUsed = true;
  for (let at = 0; at < subject.length; at += 1) {
    if (subjectUsed[at] === 1) continue;
    subjectLeft += leftOverWeight(subject[at] as WeightedWord);
    subjectAllUsed = false;
  }
  let listedTotal = pairedWeight;
  let listedAllUsed = true;
  for (let at = 0; at < listed.length; at += 1) {
    if (listedUsed[at] === 1) continue;
    listedTotal += leftOverWeight(listed[at] as WeightedWord);
    listedAllUsed = false;
  }
  const subjectCoverage = pairedWeight + subjectLeft === 0 ? 0 : matched / (pairedWeight + subjectLeft);
  const listedCoverage = listedTotal === 0 ? 0 : matched / listedTotal;
  const better = Math.max(subjectCoverage, listedCoverage);
  const other = Math.min(subjectCoverage, listedCoverage);
  let score = better * (0.6 + 0.4 * other);
  let meaningful = 0;
  for (const pair of chosen) if (pair.similarity.kind !== 'LEGAL_FORM') meaningful += 1;
  const words = (name: readonly WeightedWord[]) =>
    name.filter((word) => !isLegalForm(word.forms.text)).length;
  if (meaningful <= 1 && words(subject) >= 2 && words(listed) >= 2) score = Math.min(score, 0.6);
  const total = pairedWeight + subjectLeft + listedTotal;
  return {
    score,
    exact:
      subjectAllUsed &&
      listedAllUsed &&
      chosen.every((pair) => pair.similarity.similarity === 1 && pair.similarity.kind !== 'JOINED'),
    explain: () => ({
      tokens: chosen
        .sort((a, b) => (a.subject.at[0] as number) - (b.subject.at[0] as number))
        .map((pair) => ({
          subject: pair.subject.at.map((at) => subject[at]?.forms.text).join(' '),
          listed: pair.listed.at.map((at) => listed[at]?.forms.text).join(' '),
          kind: pair.similarity.kind,
          similarity: Math.round(pair.similarity.similarity * 100) / 100,
          weight: total === 0 ? 0 : Math.round(((2 * pair.weight) / total) * 100) / 100,
        })),
      unmatchedSubject: subject.filter((_, at) => subjectUsed[at] !== 1).map((word) => word.forms.text),
      unmatchedListed: listed.filter((_, at) => listedUsed[at] === 0).map((word) => word.forms.text),
    }),
  };
};
