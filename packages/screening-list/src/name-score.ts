import type { ScreeningTokenMatch } from '@onboarding-kit/core/adapter';
import { distance } from 'fastest-levenshtein';
import { isLegalForm } from './legal-forms.js';
import { type WordForms, type WordSimilarity, wordForms, wordSimilarity } from './word-similarity.js';

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

/** How two names compare: a score 0..1 (what it is made of: `explainName`). */
export type NameScore = {
  readonly score: number;
  /** Every word of both names paired with the same word (`EXACT` or `LEGAL_FORM`), none left over. */
  readonly exact: boolean;
  /** Every word of both names paired, none left over on either side (`Dmitry Sokolov` / `Dmitri Sokolov`). */
  readonly whole: boolean;
  /**
   * Every word of the screened name paired, and some of the listed name's left over (`Ivan Frolov`
   * / `Ivan Sergeyevich Frolov`): whether the words paired name this listed person alone is for
   * the list to say (`sharedByOthers` in `name-index.ts`).
   */
  readonly shorter: boolean;
  /**
   * Every word of the listed name paired, two or more of them names (not legal forms), and some of
   * the screened name's left over, no word joined from two (`Viktor Pavel Andrei Olga Belov` /
   * `Viktor Belov`): the listed name is in the screened one whole, however many words were added.
   */
  readonly contains: boolean;
  /**
   * Every word of both names paired, none left over (but one initial of the screened name against
   * a listed name of two words: `V. V. Putin` / `PUTIN Vladimir`), each the same word or an initial
   * of it, one at least of each (`V. V. Putin`, `Putin V. V.` / `Vladimir Vladimirovich Putin`):
   * the listed name written with initials.
   */
  readonly initialled: boolean;
  /** How much of the listed name the paired words cover, 0..1 (1: every listed word, each the same word). */
  readonly listedCoverage: number;
  /** The positions of the listed name's words paired, a bit each (the first 31). */
  readonly pairedListed: number;
  /** Scored as a name other listed ones share the paired words of (`scoreName`'s `namesakes`). */
  readonly namesakes: boolean;
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

/** Adjacent words of one name joined (`at`: their positions), compared with a word of the other. */
type Span = { readonly at: readonly number[]; readonly text: string };
/** The positions of one word, made once for each position (a query pairs thousands of words). */
const singles: (readonly number[])[] = [];
const single = (at: number): readonly number[] => {
  let positions = singles[at];
  if (positions === undefined) {
    positions = [at];
    singles[at] = positions;
  }
  return positions;
};
/** Words of the subject and of the listed name (their positions) paired. */
type Pair = {
  readonly subject: readonly number[];
  readonly listed: readonly number[];
  readonly similarity: WordSimilarity;
  readonly weight: number;
};

/**
 * Runs of adjacent words of one name that may be a word of the other joined: those starting with a
 * word whose first two letters begin a longer word of the other (`dmi tri` / `dmitri`).
 */
const NO_SPANS: readonly Span[] = [];
/**
 * Whether a word of `other` is longer than `first` and starts with its first two letters, or, a
 * word written without vowels (`bdllh`), with its first two consonants (`abd`, `pt`).
 */
const beginsLongerWord = (first: WordForms, other: readonly WeightedWord[]): boolean => {
  const letters = first.text;
  for (const word of other) {
    const text = word.forms.text;
    if (
      text.length > letters.length &&
      text.charCodeAt(0) === letters.charCodeAt(0) &&
      (letters.length < 2 || text.charCodeAt(1) === letters.charCodeAt(1))
    )
      return true;
    if (
      word.forms.vowelless &&
      first.skeleton.length >= 2 &&
      word.forms.skeleton.length > first.skeleton.length &&
      word.forms.skeleton.startsWith(first.skeleton.slice(0, 2))
    )
      return true;
  }
  return false;
};
const spansOf = (words: readonly WeightedWord[], other: readonly WeightedWord[]): readonly Span[] => {
  // Allocated only for a name that has spans: most candidates have none.
  let spans: Span[] | undefined;
  for (let from = 0; from < words.length; from += 1) {
    if (!beginsLongerWord((words[from] as WeightedWord).forms, other)) continue;
    let text = '';
    for (let to = from; to < Math.min(words.length, from + MAX_SPAN); to += 1) {
      const word = words[to]?.forms.text as string;
      if (isLegalForm(word)) break;
      text += word;
      if (to > from) {
        const at: number[] = [];
        for (let position = from; position <= to; position += 1) at.push(position);
        spans ??= [];
        spans.push({ at, text });
      }
    }
  }
  return spans ?? NO_SPANS;
};

/** The words of a name that are no legal form. */
const wordCount = (name: readonly WeightedWord[]): number => {
  let count = 0;
  for (const word of name) if (!isLegalForm(word.forms.text)) count += 1;
  return count;
};

/** Best pairs first: the most alike, then the heaviest (a joined pair covers several words). */
const before = (a: Pair, b: Pair): boolean => {
  const byWeight = a.similarity.similarity * a.weight - b.similarity.similarity * b.weight;
  return byWeight > 0 || (byWeight === 0 && a.similarity.similarity > b.similarity.similarity);
};

const JOINED_ALIKE: WordSimilarity = { kind: 'JOINED', similarity: 1 };
/**
 * Pairs the word at `at` of `words` with two words of `other` it is, joined in any order and place
 * (not adjacent: those are spans); `fromSubject` says which side `words` is.
 */
const joinedAnyOrder = (
  words: readonly WeightedWord[],
  at: number,
  other: readonly WeightedWord[],
  fromSubject: boolean,
) => {
  const word = words[at]?.forms.text as string;
  if (word.length < 4) return;
  for (let first = 0; first < other.length; first += 1) {
    const head = other[first]?.forms.text as string;
    if (!word.startsWith(head) || isLegalForm(head)) continue;
    for (let second = 0; second < other.length; second += 1) {
      if (second === first || Math.abs(second - first) === 1) continue;
      const tail = (other[second] as WeightedWord).forms.text;
      if (word.length !== head.length + tail.length || !word.endsWith(tail)) continue;
      const span = [first, second];
      addPair(
        fromSubject
          ? { subject: single(at), listed: span, similarity: JOINED_ALIKE, weight: weightOf(other, span) }
          : { subject: span, listed: single(at), similarity: JOINED_ALIKE, weight: words[at]?.weight ?? 0 },
      );
    }
  }
};

/**
 * Scratch space of `scoreName`, reused by every call (it is synchronous and keeps none of it):
 * the queries' garbage is what their slowest turns pay for, in the collector's work.
 */
const pairs: Pair[] = [];
let pairCount = 0;
/**
 * The scratch arrays are written over, never emptied: V8 drops an array's storage when its length
 * is set to 0, and the next push allocates it again.
 */
const addPair = (pair: Pair) => {
  pairs[pairCount] = pair;
  pairCount += 1;
};
/** The pairs chosen by the last call, read by `explainName` right after it. */
const chosen: Pair[] = [];
let chosenCount = 0;
const free = (used: readonly number[], positions: readonly number[]): boolean => {
  for (const at of positions) if (used[at] === 1) return false;
  return true;
};
const subjectUsed: number[] = [];
const listedUsed: number[] = [];

const weightOf = (words: readonly WeightedWord[], positions: readonly number[]): number => {
  let weight = 0;
  for (const at of positions) weight += words[at]?.weight ?? 0;
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
 * A word of a script written without short vowels (`عبدالله`, `bdllh`) against words of the other
 * name written apart (`Abd Allah`): joined, the same consonants, as `wordSimilarity` reads a single
 * word against its romanization; `joinedSimilarity`'s spelling cannot, with no vowel to spell.
 */
const vowellessJoined = (vowelless: WordForms, span: string): WordSimilarity | null => {
  if (!vowelless.vowelless || vowelless.text.length < 4) return null;
  const similarity = wordSimilarity(vowelless, wordForms(span));
  return similarity !== null && similarity.kind === 'PHONETIC' && similarity.similarity >= 0.95
    ? { kind: 'JOINED', similarity: similarity.similarity }
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
 *
 * With `namesakes` (the caller found other listed names holding every listed word paired), the
 * listed words left over weigh in full and the score is the listed side's coverage times 0.6 +
 * 0.4 × the screened side's: what the client's name leaves out is what tells those listed apart.
 */
export const scoreName = (
  subject: readonly WeightedWord[],
  listed: readonly WeightedWord[],
  namesakes = false,
): NameScore => pairNames(subject, listed, namesakes);

/** `scoreName`'s score, with the weight of both names' words the pairs' weights are shares of. */
type Paired = NameScore & { readonly total: number };

/**
 * Scores two names (`scoreName`), leaving the pairs it chose in `chosen`. With `namesakes`, other
 * listed persons hold the words the screened name shares with this one (`Nikolay Zakharov` /
 * `Nikolay Petrovich Zakharov` beside `Nikolay Borisovich Zakharov`): the listed words it leaves
 * out are what tells them apart, so they weigh in full (a patronymic too), and the score is led by
 * how much of the listed name's weight is covered.
 */
const pairNames = (
  subject: readonly WeightedWord[],
  listed: readonly WeightedWord[],
  namesakes: boolean,
): Paired => {
  pairCount = 0;
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
      addPair({ subject: single(s), listed: single(l), similarity, weight: listedWord.weight });
    }
  }
  const subjectSpans = spansOf(subject, listed);
  const listedSpans = spansOf(listed, subject);
  for (const span of subjectSpans) {
    for (let l = 0; l < listed.length; l += 1) {
      const listedWord = listed[l] as WeightedWord;
      const similarity =
        joinedSimilarity(span.text, listedWord.forms.text) ?? vowellessJoined(listedWord.forms, span.text);
      if (similarity === null) continue;
      addPair({ subject: span.at, listed: single(l), similarity, weight: listedWord.weight });
    }
  }
  for (const span of listedSpans) {
    for (let s = 0; s < subject.length; s += 1) {
      const subjectWord = subject[s] as WeightedWord;
      const similarity =
        joinedSimilarity(subjectWord.forms.text, span.text) ?? vowellessJoined(subjectWord.forms, span.text);
      if (similarity === null) continue;
      addPair({ subject: single(s), listed: span.at, similarity, weight: weightOf(listed, span.at) });
    }
  }
  // A word of one side that is two words of the other joined, whatever their order and place
  // (`vladimirputin` / `vladimir vladimirovich putin`).
  for (let s = 0; s < subject.length; s += 1) joinedAnyOrder(subject, s, listed, true);
  for (let l = 0; l < listed.length; l += 1) joinedAnyOrder(listed, l, subject, false);

  // Sorted in place, by insertion: a handful of pairs (Array#sort allocates a work array a call).
  for (let at = 1; at < pairCount; at += 1) {
    const pair = pairs[at] as Pair;
    let to = at;
    while (to > 0 && before(pair, pairs[to - 1] as Pair)) {
      pairs[to] = pairs[to - 1] as Pair;
      to -= 1;
    }
    pairs[to] = pair;
  }
  // Which words are paired.
  for (let at = 0; at < subject.length; at += 1) subjectUsed[at] = 0;
  for (let at = 0; at < listed.length; at += 1) listedUsed[at] = 0;
  chosenCount = 0;
  for (let at = 0; at < pairCount; at += 1) {
    const pair = pairs[at] as Pair;
    if (!free(subjectUsed, pair.subject) || !free(listedUsed, pair.listed)) continue;
    for (const at of pair.subject) subjectUsed[at] = 1;
    for (const at of pair.listed) listedUsed[at] = 1;
    chosen[chosenCount] = pair;
    chosenCount += 1;
  }

  // A paired subject word weighs as the listed word(s) it was paired with (an unknown spelling of
  // a common name is still a common name); an unpaired one by its own rarity.
  let matched = 0;
  let pairedWeight = 0;
  for (let at = 0; at < chosenCount; at += 1) {
    const pair = chosen[at] as Pair;
    matched += pair.similarity.similarity * pair.weight;
    pairedWeight += pair.weight;
  }
  let subjectLeft = 0;
  let subjectAllUsed = true;
  // Initials left over: one, of a middle name or patronymic a listed name of two words does not
  // give (`V. V. Putin` / `Vladimir PUTIN`: the father's initial a Russian writes after the given
  // name's); against a listed name with a middle name, an initial more is another name.
  let subjectInitialsLeft = 0;
  let initialsLeft = 0;
  let initialsLeftWeight = 0;
  for (let at = 0; at < subject.length; at += 1) {
    if (subjectUsed[at] === 1) continue;
    const word = subject[at] as WeightedWord;
    const weight = leftOverWeight(word);
    subjectLeft += weight;
    subjectAllUsed = false;
    subjectInitialsLeft += word.forms.text.length === 1 ? 1 : 2;
    if (word.forms.text.length === 1) {
      initialsLeft += 1;
      initialsLeftWeight += weight;
    }
  }
  // Initials left over past the one a listed name may leave out (the patronymic's), by a client who
  // gives the listed given names by initials too (`V. A. B. Putin` / `PUTIN Vladimir`): each stands
  // for a given name the listed person does not have, and weighs as one (the listed given name an
  // initial was paired with), not as the rarity of a letter, which made three initials one point
  // less than two (79.9, a match on a list where the paired words weigh a little more).
  if (initialsLeft >= 2) {
    let givenNameWeight = 0;
    for (let at = 0; at < chosenCount; at += 1) {
      const pair = chosen[at] as Pair;
      if (pair.similarity.kind === 'INITIAL' && pair.weight > givenNameWeight) givenNameWeight = pair.weight;
    }
    if (givenNameWeight > 0) {
      const perInitial = initialsLeftWeight / initialsLeft;
      subjectLeft += (initialsLeft - 1) * Math.max(0, givenNameWeight - perInitial);
    }
  }
  let listedTotal = pairedWeight;
  let listedAllUsed = true;
  let pairedListed = 0;
  for (let at = 0; at < listed.length; at += 1) {
    if (listedUsed[at] === 1) {
      if (at < 31) pairedListed |= 1 << at;
      continue;
    }
    const word = listed[at] as WeightedWord;
    listedTotal += namesakes ? word.weight : leftOverWeight(word);
    listedAllUsed = false;
  }
  const subjectCoverage = pairedWeight + subjectLeft === 0 ? 0 : matched / (pairedWeight + subjectLeft);
  const listedCoverage = listedTotal === 0 ? 0 : matched / listedTotal;
  const better = Math.max(subjectCoverage, listedCoverage);
  const other = Math.min(subjectCoverage, listedCoverage);
  let score = namesakes ? listedCoverage * (0.6 + 0.4 * subjectCoverage) : better * (0.6 + 0.4 * other);
  let meaningful = 0;
  for (let at = 0; at < chosenCount; at += 1)
    if ((chosen[at] as Pair).similarity.kind !== 'LEGAL_FORM') meaningful += 1;
  if (meaningful <= 1 && wordCount(subject) >= 2 && wordCount(listed) >= 2) score = Math.min(score, 0.6);
  let exact = subjectAllUsed && listedAllUsed;
  let joined = false;
  let initials = 0;
  let sameWords = 0;
  for (let at = 0; at < chosenCount; at += 1) {
    const pair = chosen[at] as Pair;
    if (pair.similarity.kind === 'JOINED') joined = true;
    if (pair.similarity.similarity !== 1 || pair.similarity.kind === 'JOINED') exact = false;
    if (pair.similarity.kind === 'INITIAL') initials += 1;
    else if (pair.similarity.kind === 'EXACT') sameWords += 1;
  }
  return {
    score,
    exact,
    initialled:
      (subjectAllUsed || (subjectInitialsLeft === 1 && listed.length === 2)) &&
      listedAllUsed &&
      initials > 0 &&
      sameWords > 0 &&
      initials + sameWords === chosenCount,
    whole: subjectAllUsed && listedAllUsed,
    shorter: subjectAllUsed && !listedAllUsed,
    contains: listedAllUsed && !subjectAllUsed && meaningful >= 2 && !joined,
    listedCoverage,
    pairedListed,
    namesakes,
    total: pairedWeight + subjectLeft + listedTotal,
  };
};

/**
 * Which words of two names `scoreName` paired, how, and which were left over: written out only for
 * a name worth explaining (most candidates are not a match), by scoring the two again.
 */
export const explainName = (
  subject: readonly WeightedWord[],
  listed: readonly WeightedWord[],
  namesakes = false,
): NamePairing => {
  const { total } = pairNames(subject, listed, namesakes);
  const paired = chosen.slice(0, chosenCount);
  // In the subject's order, by insertion (stable, and Array#sort allocates a work array a call).
  for (let at = 1; at < paired.length; at += 1) {
    const pair = paired[at] as Pair;
    let to = at;
    while (to > 0 && ((paired[to - 1] as Pair).subject[0] as number) > (pair.subject[0] as number)) {
      paired[to] = paired[to - 1] as Pair;
      to -= 1;
    }
    paired[to] = pair;
  }
  const subjectPaired = new Array<boolean>(subject.length).fill(false);
  const listedPaired = new Array<boolean>(listed.length).fill(false);
  for (const pair of paired) {
    for (const at of pair.subject) subjectPaired[at] = true;
    for (const at of pair.listed) listedPaired[at] = true;
  }
  return {
    tokens: paired.map((pair) => ({
      subject: pair.subject.map((at) => subject[at]?.forms.text).join(' '),
      listed: pair.listed.map((at) => listed[at]?.forms.text).join(' '),
      kind: pair.similarity.kind,
      similarity: Math.round(pair.similarity.similarity * 100) / 100,
      weight: total === 0 ? 0 : Math.round(((2 * pair.weight) / total) * 100) / 100,
    })),
    unmatchedSubject: subject.filter((_, at) => !subjectPaired[at]).map((word) => word.forms.text),
    unmatchedListed: listed.filter((_, at) => !listedPaired[at]).map((word) => word.forms.text),
  };
};
