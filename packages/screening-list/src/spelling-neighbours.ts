/**
 * The words of a vocabulary one typing slip away from a word (a letter left out, added, changed,
 * or two swapped: `waner`, `thompon`, `jnoes`), found without comparing the word with every word
 * of the vocabulary: each vocabulary word is keyed at load by itself and by each of its one-letter
 * deletions, and a word's neighbours are the vocabulary words sharing one of its own keys (two
 * words within one edit always do). Keys are 32-bit hashes packed with the word's id in one sorted
 * `Float64Array` (a few bytes a key, no object per key); a hash collision only adds a word the
 * caller's comparison then refuses.
 */
export type SpellingNeighbours = {
  /**
   * Calls `visit` with the id of each vocabulary word sharing a key with `word` (its neighbours,
   * and rare collisions), a word sharing several keys once a key: no array or set made a call
   * (a query asks for each word it does not know).
   */
  near(word: string, visit: (id: number) => void): void;
};

/** Words shorter than this have too many neighbours to tell a slip from another name. */
export const MIN_NEIGHBOUR_LENGTH = 4;

/** FNV-1a of the word with the letter at `skipped` left out (-1: none). */
const hashOf = (word: string, skipped: number): number => {
  let hash = 0x811c9dc5;
  for (let at = 0; at < word.length; at += 1) {
    if (at === skipped) continue;
    hash ^= word.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** The word's keys: its hash, and its hash with each letter left out. */
const keysOf = (word: string, into: Set<number>) => {
  into.clear();
  into.add(hashOf(word, -1));
  for (let at = 0; at < word.length; at += 1) into.add(hashOf(word, at));
  return into;
};

/** Indexes the words (by their position in `words`) for which `indexed` holds. */
export const createSpellingNeighbours = (
  words: readonly string[],
  indexed: (word: string) => boolean,
): SpellingNeighbours => {
  const idBits = Math.max(1, Math.ceil(Math.log2(words.length + 1)));
  // A double holds 53 bits exactly: the hash keeps those the id leaves.
  const hashBits = Math.min(32, 53 - idBits);
  const idScale = 2 ** idBits;
  const hashShift = 32 - hashBits;
  let count = 0;
  for (const word of words)
    if (indexed(word) && word.length >= MIN_NEIGHBOUR_LENGTH) count += word.length + 1;
  let packed = new Float64Array(count);
  let at = 0;
  const keys = new Set<number>();
  words.forEach((word, id) => {
    if (!indexed(word) || word.length < MIN_NEIGHBOUR_LENGTH) return;
    for (const hash of keysOf(word, keys)) {
      packed[at] = (hash >>> hashShift) * idScale + id;
      at += 1;
    }
  });
  packed = packed.slice(0, at).sort();

  const lowerBound = (value: number): number => {
    let low = 0;
    let high = packed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((packed[middle] as number) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  return {
    near(word, visit) {
      if (word.length < MIN_NEIGHBOUR_LENGTH - 1) return;
      // Its keys: its hash (skipping no letter), and its hash with each letter left out.
      for (let skipped = -1; skipped < word.length; skipped += 1) {
        const from = (hashOf(word, skipped) >>> hashShift) * idScale;
        for (let index = lowerBound(from); index < packed.length; index += 1) {
          const value = packed[index] as number;
          if (value >= from + idScale) break;
          visit(value - from);
        }
      }
    },
  };
};
