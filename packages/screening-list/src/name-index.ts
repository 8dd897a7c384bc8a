import { isLegalForm, LEGAL_FORM_WEIGHT } from './legal-forms.js';
import type { WeightedWord } from './name-score.js';
import { createSpellingNeighbours, MIN_NEIGHBOUR_LENGTH } from './spelling-neighbours.js';
import { type WordForms, wordForms, wordSimilarity } from './word-similarity.js';

/** The candidates a query scores at most: the listed names that share the most of its weight. */
const MAX_CANDIDATES = 24;
/** A listed name is a candidate when it shares at least this much of the screened name's weight. */
const MIN_SHARED_WEIGHT = 0.55;
/** Or when the screened name holds this much of the listed name's own weight: the whole of it. */
const WHOLE_NAME_SHARE = 0.97;
/**
 * A word held by more names than this (a legal form, `trading`, `mohammed` on a large list) finds
 * no candidate by itself when the query has a rarer word: those names are found by the rarer one.
 */
const COMMON_POSTINGS = 20_000;
/**
 * Listed names identical to the query (every word of both paired) are all candidates, beyond
 * MAX_CANDIDATES, up to this many: a common name listed for many targets names each of them.
 */
const MAX_IDENTICAL = 100;
/**
 * A listed word held by more than this share of the names (and at least MIN_COMMON_WORD_POSTINGS)
 * is common: a query holding it looks up no variant of it.
 */
const COMMON_WORD_SHARE = 0.001;
const MIN_COMMON_WORD_POSTINGS = 50;
/** Variants of a query word (sharing a key with it) compared with it at most. */
const MAX_VARIANTS_CHECKED = 64;
const NONE: readonly number[] = [];
/** Bits of a query's word mask (a 32-bit integer), a word's each, its position's. */
const MAX_QUERY_UNITS = 31;
/**
 * The mask of a word past them: the 32nd bit, which marks a name as found but is no word's, so
 * each such word adds its weight (its text is looked up once a query: no word counts twice).
 */
const PAST_THE_MASK = 1 << 31;

/** One listed name: its words (ids of the vocabulary), its target, whether it names an organization. */
export type IndexedName = { readonly target: number; readonly text: string; readonly organization: boolean };

export type NameIndex = {
  readonly names: number;
  /** The listed names worth scoring against these words, of persons or of organizations. */
  candidates(words: readonly WeightedWord[], organization: boolean): number[];
  name(id: number): IndexedName;
  /** The parts of `name(id)`, read without making an object (a query reads tens of names). */
  targetOf(id: number): number;
  textOf(id: number): string;
  isOrganization(id: number): boolean;
  /** The listed name's words, weighted, written into `into` (emptied first, and answered): no array made a candidate. */
  wordsInto(id: number, into: WeightedWord[]): WeightedWord[];
  /** A screened word with its weight: its rarity on the list, an unknown word the rarest. */
  weigh(word: string): WeightedWord;
  /**
   * How many other listed persons or organizations (another target, another name: not an alias
   * or a copy of this one) hold every word of `name(id)` at the positions of `positions` (a bit
   * each), counted up to `limit`: whether those words together name this listed one alone.
   */
  sharedByOthers(id: number, positions: number, limit: number): number;
};

/** The bit of a word's first letter (a..z), 0 for another. */
const initialBit = (word: string): number => {
  const letter = word.charCodeAt(0) - 97;
  return letter >= 0 && letter < 26 ? 1 << letter : 0;
};

const growInt32 = (array: Int32Array, least: number): Int32Array => {
  if (array.length >= least) return array;
  const grown = new Int32Array(Math.max(least, array.length * 2));
  grown.set(array);
  return grown;
};

/**
 * Builds the index of a list's names once, at load: a vocabulary of their words (each with its
 * consonant skeleton and Double Metaphone code, computed once), an inverted index from each word
 * to the names holding it, and from each skeleton and code to the words sharing it. A query looks
 * up its words, their sound-alike words, adjacent words joined and a word split in two, and scores
 * only the names sharing enough of its weight (tens or a few hundred of a million).
 */
export const createNameIndexBuilder = () => {
  const vocabulary = new Map<string, number>();
  const forms: WordForms[] = [];
  const postings: number[][] = [];
  let nameWordIds: Int32Array = new Int32Array(1 << 16);
  let nameWordCount = 0;
  const nameStarts: number[] = [0];
  const targets: number[] = [];
  const organizations: number[] = [];
  const texts: string[] = [];

  const wordId = (word: string): number => {
    const known = vocabulary.get(word);
    if (known !== undefined) return known;
    const id = forms.length;
    vocabulary.set(word, id);
    forms.push(wordForms(word));
    postings.push([]);
    return id;
  };

  return {
    /** Adds a listed name; answers its id (-1 when it has no word). */
    add(words: readonly string[], target: number, organization: boolean, text: string): number {
      if (words.length === 0) return -1;
      const name = texts.length;
      nameWordIds = growInt32(nameWordIds, nameWordCount + words.length);
      for (const word of words) {
        const id = wordId(word);
        nameWordIds[nameWordCount] = id;
        nameWordCount += 1;
        const holders = postings[id] as number[];
        if (holders[holders.length - 1] !== name) holders.push(name);
      }
      nameStarts.push(nameWordCount);
      targets.push(target);
      organizations.push(organization ? 1 : 0);
      texts.push(text);
      return name;
    },

    build(): NameIndex {
      const names = texts.length;
      const words = forms.length;
      const weights = new Float64Array(words);
      const postingStarts = new Int32Array(words + 1);
      let total = 0;
      for (let id = 0; id < words; total += (postings[id] as number[]).length, id += 1)
        postingStarts[id] = total;
      postingStarts[words] = total;
      const postingNames = new Int32Array(total);
      const bySkeleton = new Map<string, number[]>();
      const byMetaphone = new Map<string, number[]>();
      const byRomanization = new Map<string, number[]>();
      const keyed = (map: Map<string, number[]>, key: string, id: number) => {
        const ids = map.get(key);
        if (ids === undefined) map.set(key, [id]);
        else ids.push(id);
      };
      for (let id = 0; id < words; id += 1) {
        const holders = postings[id] as number[];
        postingNames.set(holders, postingStarts[id] as number);
        const word = forms[id] as WordForms;
        weights[id] = isLegalForm(word.text) ? LEGAL_FORM_WEIGHT : 1 + Math.log(names / holders.length);
        for (const skeleton of word.skeletons) if (skeleton.length >= 2) keyed(bySkeleton, skeleton, id);
        if (word.metaphone.length >= 2 && !word.vowelless) keyed(byMetaphone, word.metaphone, id);
        if (word.romanized !== word.text) keyed(byRomanization, word.romanized, id);
      }
      // Each short listed word (`van`, `quoc`) under itself with one letter left out (`va`, `quc`):
      // what a short query word the list does not hold may be, found by one lookup.
      const byLetterDropped = new Map<string, number[]>();
      for (let id = 0; id < words; id += 1) {
        const text = (forms[id] as WordForms).text;
        if (text.length < 2 || text.length > MIN_NEIGHBOUR_LENGTH + 1 || isLegalForm(text)) continue;
        for (let at = 0; at < text.length; at += 1) {
          const letter = text.charCodeAt(at);
          if (letter < 97 || letter > 122) continue;
          const key = text.slice(0, at) + text.slice(at + 1);
          const ids = byLetterDropped.get(key);
          if (ids === undefined) byLetterDropped.set(key, [id]);
          else if (ids[ids.length - 1] !== id) ids.push(id);
        }
      }
      const neighbours = createSpellingNeighbours(
        forms.map((word) => word.text),
        (word) => !isLegalForm(word),
      );
      postings.length = 0;
      const wordIds = nameWordIds.slice(0, nameWordCount);
      const starts = Int32Array.from(nameStarts);
      const nameTargets = Int32Array.from(targets);
      const nameOrganizations = Uint8Array.from(organizations);
      const nameWeights = new Float64Array(names);
      for (let name = 0; name < names; name += 1) {
        for (let at = starts[name] as number; at < (starts[name + 1] as number); at += 1) {
          const word = wordIds[at] as number;
          nameWeights[name] = (nameWeights[name] as number) + (weights[word] as number);
        }
      }
      // Each listed word's first letter, a bit (a..z): what a query's initials meet; and the
      // consonant of its skeletons of one consonant (`levi`: `l`), what an abjad word of one
      // strong consonant meets (לוי, `lw`).
      const wordInitials = new Int32Array(words);
      const wordOneConsonants = new Int32Array(words);
      for (let id = 0; id < words; id += 1) {
        const form = forms[id] as WordForms;
        wordInitials[id] = initialBit(form.text);
        for (const skeleton of form.skeletons)
          if (skeleton.length === 1)
            wordOneConsonants[id] = (wordOneConsonants[id] as number) | initialBit(skeleton);
      }
      const rarest = 1 + Math.log(Math.max(names, 1));
      const commonWordPostings = Math.max(MIN_COMMON_WORD_POSTINGS, names * COMMON_WORD_SHARE);
      // Reused by every query (matching is synchronous): the words of the query each name holds.
      // Reused by every query (matching is synchronous), three numbers a name side by side, so that
      // reading a posting touches one cache line: the words of the query the name holds (a mask),
      // the weight they share, and the name's own weight (negative for an organization's name).
      const state = new Float64Array(names * 3);
      for (let name = 0; name < names; name += 1) {
        state[name * 3 + 2] =
          nameOrganizations[name] === 1 ? -(nameWeights[name] as number) : (nameWeights[name] as number);
      }
      // A mark on the words of the unit being read (`stamp` is the unit's), to read a name's words against it.
      const wordMarks = new Int32Array(words);
      // The names a query found (each at most once: its mask was 0).
      const touched = new Int32Array(names);
      // The best MAX_CANDIDATES by rank, kept sorted in two small typed arrays (no object per name).
      const bestNames = new Int32Array(MAX_CANDIDATES);
      const bestRanks = new Float64Array(MAX_CANDIDATES);
      let stamp = 0;
      // A query's units, written over by each query (no object or array made a unit): a unit is a
      // bit of the query's mask (a word, or a half of a word split in two), the weight it stands
      // for, and the listed words that find it, `unitIds[unitStarts[unit]]` up to the next unit's start.
      const unitMasks: number[] = [];
      const unitWeights: number[] = [];
      const unitSizes: number[] = [];
      const unitStarts: number[] = [0];
      const unitIds: number[] = [];
      let unitCount = 0;
      let idCount = 0;
      /** Ends the unit whose ids were added since the last one; a unit no listed word finds is none. */
      const endUnit = (mask: number, weight: number) => {
        const start = unitStarts[unitCount] as number;
        if (idCount === start) return;
        unitMasks[unitCount] = mask;
        unitWeights[unitCount] = weight;
        let size = 0;
        for (let at = start; at < idCount; at += 1) {
          const id = unitIds[at] as number;
          size += (postingStarts[id + 1] as number) - (postingStarts[id] as number);
        }
        unitSizes[unitCount] = size;
        unitCount += 1;
        unitStarts[unitCount] = idCount;
      };
      const addUnit = (mask: number, weight: number, id: number) => {
        unitIds[idCount] = id;
        idCount += 1;
        endUnit(mask, weight);
      };
      // The units in the order their postings are read, and the query's weak words (`weakWords`),
      // written over too.
      const order: number[] = [];
      const weakBits: number[] = [];
      const weakWeights: number[] = [];
      const weakByConsonant: boolean[] = [];
      // Marks of the listed words the query word being read has found (its unit's ids) and is to
      // compare with (`alike`), by its stamp: sets of ids without a Set made a word.
      const foundMarks = new Int32Array(words);
      const alikeMarks = new Int32Array(words);
      let wordStamp = 0;
      const addFound = (id: number) => {
        if (foundMarks[id] === wordStamp) return;
        foundMarks[id] = wordStamp;
        unitIds[idCount] = id;
        idCount += 1;
      };
      // Written over, not emptied: an array whose length is set to 0 loses its storage.
      const alike: number[] = [];
      let alikeCount = 0;
      const addAlike = (id: number) => {
        if (alikeMarks[id] === wordStamp) return;
        alikeMarks[id] = wordStamp;
        alike[alikeCount] = id;
        alikeCount += 1;
      };

      // Each listed word weighted once, at load: made while the host serves, they would be old
      // objects made young, which every minor collection of the queries' garbage walks.
      const weightedWords: WeightedWord[] = forms.map((form, id) => ({
        forms: form,
        weight: weights[id] as number,
        known: true,
      }));
      const weighted = (id: number): WeightedWord => weightedWords[id] as WeightedWord;
      const weigh = (word: string): WeightedWord => {
        const id = vocabulary.get(word);
        // An unknown word weighs as the rarest, but an initial says little of whom it names.
        return id === undefined
          ? {
              forms: wordForms(word),
              weight: isLegalForm(word) ? LEGAL_FORM_WEIGHT : word.length === 1 ? 1 : rarest,
              known: false,
            }
          : weighted(id);
      };

      const wordsInto = (id: number, into: WeightedWord[]): WeightedWord[] => {
        // Written over, not emptied: an array whose length is set to 0 loses its storage.
        const from = starts[id] as number;
        const to = starts[id + 1] as number;
        for (let at = from; at < to; at += 1) into[at - from] = weighted(wordIds[at] as number);
        into.length = to - from;
        return into;
      };

      // The word ids a namesake must hold, and the targets counted (a target's names are added one after another).
      const required: number[] = [];
      const sameWords = (a: number, b: number): boolean => {
        const length = (starts[a + 1] as number) - (starts[a] as number);
        if ((starts[b + 1] as number) - (starts[b] as number) !== length) return false;
        for (let at = 0; at < length; at += 1) {
          if (wordIds[(starts[a] as number) + at] !== wordIds[(starts[b] as number) + at]) return false;
        }
        return true;
      };
      const sharedByOthers = (id: number, positions: number, limit: number): number => {
        let requiredCount = 0;
        let rarest = -1;
        const from = starts[id] as number;
        const to = Math.min(starts[id + 1] as number, from + 31);
        for (let at = from; at < to; at += 1) {
          if ((positions & (1 << (at - from))) === 0) continue;
          const word = wordIds[at] as number;
          required[requiredCount] = word;
          requiredCount += 1;
          if (
            rarest < 0 ||
            (postingStarts[word + 1] as number) - (postingStarts[word] as number) <
              (postingStarts[rarest + 1] as number) - (postingStarts[rarest] as number)
          )
            rarest = word;
        }
        if (rarest < 0) return 0;
        const target = nameTargets[id] as number;
        const organization = nameOrganizations[id];
        let others = 0;
        let lastTarget = -1;
        const end = postingStarts[rarest + 1] as number;
        for (let posting = postingStarts[rarest] as number; posting < end && others < limit; posting += 1) {
          const name = postingNames[posting] as number;
          const holder = nameTargets[name] as number;
          if (holder === target || holder === lastTarget || nameOrganizations[name] !== organization)
            continue;
          if (sameWords(name, id)) continue;
          let holdsAll = true;
          for (let index = 0; index < requiredCount && holdsAll; index += 1) {
            const word = required[index] as number;
            holdsAll = false;
            for (let at = starts[name] as number; at < (starts[name + 1] as number); at += 1) {
              if (wordIds[at] === word) {
                holdsAll = true;
                break;
              }
            }
          }
          if (!holdsAll) continue;
          others += 1;
          lastTarget = holder;
        }
        return others;
      };

      const candidates = (query: readonly WeightedWord[], organization: boolean): number[] => {
        unitCount = 0;
        idCount = 0;
        // The query's words up to MAX_QUERY_UNITS have a bit each, their position's; the halves of
        // a word split in two take the next ones.
        const wordBits = Math.min(query.length, MAX_QUERY_UNITS);
        let bitsUsed = wordBits;
        let queryWeight = 0;
        let unfound = 0;
        const written = new Set<string>();
        for (let at = 0; at < query.length; at += 1) {
          const word = query[at] as WeightedWord;
          // A word written again finds no name it has not found, and would count its names twice
          // (a name padded with one word written many times ranked every name holding it first).
          if (written.has(word.forms.text)) continue;
          written.add(word.forms.text);
          queryWeight += word.weight;
          if (isLegalForm(word.forms.text)) continue;
          if (wordStamp === 0x7fffffff) {
            foundMarks.fill(0);
            alikeMarks.fill(0);
            wordStamp = 0;
          }
          wordStamp += 1;
          const exact = vocabulary.get(word.forms.text);
          if (exact !== undefined) addFound(exact);
          // A word the list holds many times is its own spelling: the names holding its variants
          // are found by the query's other words, and its variants would add thousands of names.
          const common =
            exact !== undefined &&
            (postingStarts[exact + 1] as number) - (postingStarts[exact] as number) > commonWordPostings;
          if (common) {
            // Still its romanizations the list holds rarely (`holding` / `kholding`): the same word,
            // which the query's other words may not be enough to find.
            for (const id of byRomanization.get(word.forms.romanized) ?? NONE) {
              if ((postingStarts[id + 1] as number) - (postingStarts[id] as number) <= commonWordPostings)
                addFound(id);
            }
            const romanized = vocabulary.get(word.forms.romanized);
            if (
              romanized !== undefined &&
              (postingStarts[romanized + 1] as number) - (postingStarts[romanized] as number) <=
                commonWordPostings
            )
              addFound(romanized);
          } else {
            // Words sharing a key with it, kept only if alike as the scorer reads them: a key is
            // shared by words the scorer refuses (`yang` and `wang` sound alike to Double Metaphone).
            alikeCount = 0;
            // A skeleton of two consonants is shared by too many words to find candidates by, but
            // is all a word without vowels has (`bn`).
            for (const skeleton of word.forms.skeletons) {
              if (skeleton.length >= 3 || word.forms.vowelless)
                for (const id of bySkeleton.get(skeleton) ?? NONE) addAlike(id);
            }
            if (!word.forms.vowelless)
              for (const id of byMetaphone.get(word.forms.metaphone) ?? NONE) addAlike(id);
            for (const id of byRomanization.get(word.forms.romanized) ?? NONE) addAlike(id);
            const romanized = vocabulary.get(word.forms.romanized);
            if (romanized !== undefined) addAlike(romanized);
            // A word the list does not hold may be a listed one mistyped: its neighbours within a slip.
            if (exact === undefined && word.forms.text.length >= MIN_NEIGHBOUR_LENGTH - 1) {
              neighbours.near(word.forms.text, addAlike);
            }
            // A short one (`va`, `quo`) the listed word with a letter left out (`van`, `quoc`).
            if (exact === undefined && word.forms.text.length < MIN_NEIGHBOUR_LENGTH + 1) {
              for (const id of byLetterDropped.get(word.forms.text) ?? NONE) addAlike(id);
            }
            let checked = 0;
            for (let index = 0; index < alikeCount; index += 1) {
              const id = alike[index] as number;
              if (foundMarks[id] === wordStamp) continue;
              if (checked === MAX_VARIANTS_CHECKED) break;
              checked += 1;
              if (wordSimilarity(word.forms, forms[id] as WordForms) !== null) addFound(id);
            }
          }
          // A word whose consonants say little (`habba`, `eily`) still finds the names holding it or
          // its slips. A word the list does not hold that finds no listed word is not asked of a
          // candidate: the names are found by the query's other words, and the scorer reads it.
          // Nor is an abjad word of one strong consonant (`lhw`, אליהו), whose romanizations
          // (`eliyahu`) no key finds, even when the list holds it as written: it ranks the names
          // instead (`weakWords`).
          if (
            (exact === undefined && idCount === unitStarts[unitCount]) ||
            (word.forms.vowelless && word.forms.skeleton.length < 2)
          )
            unfound += word.weight;
          // The words past the mask's bits still find the names holding them, each adding its
          // weight (`Viktor` + 60 names + `Belov`, or 60 names then `Viktor Belov`, is found).
          endUnit(at < MAX_QUERY_UNITS ? 1 << at : PAST_THE_MASK, word.weight);
        }
        for (let from = 0; from < query.length; from += 1) {
          const word = (query[from] as WeightedWord).forms.text;
          const wordWeight = (query[from] as WeightedWord).weight;
          // Adjacent words joined (`soko lov`, `dmi tri`) as one listed word.
          let joined = word;
          let mask = from < wordBits ? 1 << from : 0;
          let weight = wordWeight;
          for (let to = from + 1; to < Math.min(query.length, from + 3); to += 1) {
            joined += (query[to] as WeightedWord).forms.text;
            if (to < wordBits) mask |= 1 << to;
            weight += (query[to] as WeightedWord).weight;
            const id = vocabulary.get(joined);
            if (id !== undefined && mask !== 0) addUnit(mask, weight, id);
          }
          // A word split in two listed words (`vladimirputin`): each half a unit of its own.
          if (word.length < 4 || vocabulary.has(word)) continue;
          let split = false;
          for (let cut = 2; cut <= word.length - 2 && bitsUsed + 2 <= MAX_QUERY_UNITS; cut += 1) {
            const left = vocabulary.get(word.slice(0, cut));
            const right = left === undefined ? undefined : vocabulary.get(word.slice(cut));
            if (left === undefined || right === undefined) continue;
            addUnit(1 << bitsUsed, wordWeight / 2, left);
            addUnit(1 << (bitsUsed + 1), wordWeight / 2, right);
            bitsUsed += 2;
            split = true;
          }
          // Or in three (`kimminho`: kim min ho), when no two listed words make it.
          for (let first = 2; !split && first <= word.length - 4; first += 1) {
            const left = vocabulary.get(word.slice(0, first));
            if (left === undefined) continue;
            for (
              let second = first + 2;
              second <= word.length - 2 && bitsUsed + 3 <= MAX_QUERY_UNITS;
              second += 1
            ) {
              const middle = vocabulary.get(word.slice(first, second));
              const right = middle === undefined ? undefined : vocabulary.get(word.slice(second));
              if (middle === undefined || right === undefined) continue;
              addUnit(1 << bitsUsed, wordWeight / 3, left);
              addUnit(1 << (bitsUsed + 1), wordWeight / 3, middle);
              addUnit(1 << (bitsUsed + 2), wordWeight / 3, right);
              bitsUsed += 3;
            }
          }
        }

        let hasRare = false;
        for (let unit = 0; unit < unitCount; unit += 1)
          if ((unitSizes[unit] as number) <= COMMON_POSTINGS) hasRare = true;
        let skipped = 0;
        let orderCount = 0;
        for (let unit = 0; unit < unitCount; unit += 1) {
          if (hasRare && (unitSizes[unit] as number) > COMMON_POSTINGS)
            skipped += unitWeights[unit] as number;
          else {
            order[orderCount] = unit;
            orderCount += 1;
          }
        }
        // The query's weak words find no name, but rank first the names holding a word they may be:
        // an initial (`j smith`) a word of that letter, an abjad word of one strong consonant
        // (לוי, `lw`) a word of that one consonant (`levi`).
        let weakWeight = 0;
        let weakCount = 0;
        for (const word of query) {
          const initial = word.forms.text.length === 1;
          if (!initial && !(word.forms.vowelless && word.forms.skeleton.length === 1)) continue;
          weakBits[weakCount] = initialBit(initial ? word.forms.text : word.forms.skeleton);
          weakWeights[weakCount] = word.weight;
          weakByConsonant[weakCount] = !initial;
          weakCount += 1;
          weakWeight += word.weight;
        }
        const least = MIN_SHARED_WEIGHT * Math.max(queryWeight - skipped - unfound, 0);
        // The rarest units first; once the units left weigh less than a candidate must share, a
        // name none of the units so far found cannot be one: the later (larger) units only add
        // to the names found, each read through its own few words rather than the unit's postings.
        // By insertion: a query has a handful of units (Array#sort allocates a work array a call).
        for (let at = 1; at < orderCount; at += 1) {
          const unit = order[at] as number;
          let to = at;
          while (to > 0 && (unitSizes[order[to - 1] as number] as number) > (unitSizes[unit] as number)) {
            order[to] = order[to - 1] as number;
            to -= 1;
          }
          order[to] = unit;
        }
        let remaining = weakWeight;
        for (let at = 0; at < orderCount; at += 1) remaining += unitWeights[order[at] as number] as number;
        let touchedCount = 0;
        for (let at = 0; at < orderCount; at += 1) {
          const unit = order[at] as number;
          const mask = unitMasks[unit] as number;
          const unitWeight = unitWeights[unit] as number;
          const idsFrom = unitStarts[unit] as number;
          const idsTo = unitStarts[unit + 1] as number;
          const adding = remaining >= least;
          remaining -= unitWeight;
          if (!adding && touchedCount * 4 < (unitSizes[unit] as number)) {
            if (stamp === 0x7fffffff) {
              wordMarks.fill(0);
              stamp = 0;
            }
            stamp += 1;
            for (let index = idsFrom; index < idsTo; index += 1) wordMarks[unitIds[index] as number] = stamp;
            for (let index = 0; index < touchedCount; index += 1) {
              const name = touched[index] as number;
              const before = state[name * 3] as number;
              if (mask !== PAST_THE_MASK && (before & mask) !== 0) continue;
              for (let word = starts[name] as number; word < (starts[name + 1] as number); word += 1) {
                if (wordMarks[wordIds[word] as number] !== stamp) continue;
                state[name * 3] = before | mask;
                state[name * 3 + 1] = (state[name * 3 + 1] as number) + unitWeight;
                break;
              }
            }
            continue;
          }
          for (let index = idsFrom; index < idsTo; index += 1) {
            const id = unitIds[index] as number;
            const end = postingStarts[id + 1] as number;
            for (let posting = postingStarts[id] as number; posting < end; posting += 1) {
              const name = postingNames[posting] as number;
              const record = name * 3;
              if ((state[record + 2] as number) < 0 !== organization) continue;
              const before = state[record] as number;
              if ((mask !== PAST_THE_MASK && (before & mask) !== 0) || (before === 0 && !adding)) continue;
              if (before === 0) {
                touched[touchedCount] = name;
                touchedCount += 1;
              }
              state[record] = before | mask;
              state[record + 1] = (state[record + 1] as number) + unitWeight;
            }
          }
        }
        // A weak word meets a word of the name the query's words did not find (`s sharma` meets
        // `sanjay sharma`, not `priya sharma` by `sharma`'s own first letter): those words marked.
        if (weakCount > 0) {
          if (stamp === 0x7fffffff) {
            wordMarks.fill(0);
            stamp = 0;
          }
          stamp += 1;
          for (let index = 0; index < idCount; index += 1) wordMarks[unitIds[index] as number] = stamp;
        }
        const identical: number[] = [];
        let kept = 0;
        for (let index = 0; index < touchedCount; index += 1) {
          const name = touched[index] as number;
          const record = name * 3;
          let weight = state[record + 1] as number;
          state[record] = 0;
          state[record + 1] = 0;
          if (weakCount > 0) {
            let letters = 0;
            let consonants = 0;
            for (let at = starts[name] as number; at < (starts[name + 1] as number); at += 1) {
              const word = wordIds[at] as number;
              if (wordMarks[word] === stamp) continue;
              letters |= wordInitials[word] as number;
              consonants |= wordOneConsonants[word] as number;
            }
            for (let weak = 0; weak < weakCount; weak += 1) {
              if (((weakByConsonant[weak] ? consonants : letters) & (weakBits[weak] as number)) !== 0)
                weight += weakWeights[weak] as number;
            }
          }
          const nameWeight = Math.abs(state[record + 2] as number);
          // A name the query holds whole is a candidate however many words the query adds to it
          // (`Viktor Wolfgang Werner Thomas Dieter Igor Belov` holds `Viktor Belov`), and one
          // however many other names the added words find.
          const whole = nameWeight > 0 && weight >= nameWeight * WHOLE_NAME_SHARE;
          if (weight < least && !whole) continue;
          const rank = weight / queryWeight + weight / nameWeight;
          if ((rank >= 2 - 1e-9 || whole) && identical.length < MAX_IDENTICAL) {
            identical.push(name);
            continue;
          }
          if (kept === MAX_CANDIDATES && rank <= (bestRanks[kept - 1] as number)) continue;
          let at = kept === MAX_CANDIDATES ? kept - 1 : kept;
          while (at > 0 && (bestRanks[at - 1] as number) < rank) {
            bestRanks[at] = bestRanks[at - 1] as number;
            bestNames[at] = bestNames[at - 1] as number;
            at -= 1;
          }
          bestRanks[at] = rank;
          bestNames[at] = name;
          if (kept < MAX_CANDIDATES) kept += 1;
        }
        for (let at = 0; at < kept; at += 1) identical.push(bestNames[at] as number);
        return identical;
      };

      return {
        names,
        candidates,
        targetOf: (id) => nameTargets[id] as number,
        textOf: (id) => texts[id] as string,
        isOrganization: (id) => nameOrganizations[id] === 1,
        name: (id) => ({
          target: nameTargets[id] as number,
          text: texts[id] as string,
          organization: nameOrganizations[id] === 1,
        }),
        wordsInto,
        weigh,
        sharedByOthers,
      };
    },
  };
};
