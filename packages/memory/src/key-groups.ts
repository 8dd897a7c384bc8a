/**
 * The keys of a committed Map grouped by a field of their values, like a secondary index: kept up
 * to date by every StagedMap that commits to that Map, so a question about one group (an owner's
 * idempotency records) reads that group's keys instead of the whole table.
 */
export class KeyGroups<K extends string | number, V> {
  readonly #groupOf: (value: V) => string;
  // A group of one key holds the key itself: an index whose groups are mostly single (events by
  // id) then costs no Set per entry.
  readonly #groups = new Map<string, K | Set<K>>();

  constructor(groupOf: (value: V) => string) {
    this.#groupOf = groupOf;
  }

  /** The committed keys whose value is in `group`, in the order they joined it (do not keep across commits). */
  keysOf(group: string): ReadonlySet<K> {
    const keys = this.#groups.get(group);
    if (keys === undefined) return new Set();
    return typeof keys === 'object' ? keys : new Set([keys]);
  }

  /** Records that `key` went from `previous` to `next` (undefined: absent) in the committed Map. */
  update(key: K, previous: V | undefined, next: V | undefined): void {
    const from = previous === undefined ? undefined : this.#groupOf(previous);
    const to = next === undefined ? undefined : this.#groupOf(next);
    if (from === to) return;
    if (from !== undefined) this.#remove(from, key);
    if (to !== undefined) this.#add(to, key);
  }

  #add(group: string, key: K): void {
    const keys = this.#groups.get(group);
    if (keys === undefined) this.#groups.set(group, key);
    else if (typeof keys === 'object') keys.add(key);
    else if (keys !== key) this.#groups.set(group, new Set([keys, key]));
  }

  #remove(group: string, key: K): void {
    const keys = this.#groups.get(group);
    if (keys === key) {
      this.#groups.delete(group);
    } else if (typeof keys === 'object') {
      keys.delete(key);
      if (keys.size === 0) this.#groups.delete(group);
    }
  }
}
