/**
 * The keys of a committed Map grouped by a field of their values, like a secondary index: kept up
 * to date by every StagedMap that commits to that Map, so a question about one group (an owner's
 * idempotency records) reads that group's keys instead of the whole table.
 */
export class KeyGroups<K, V> {
  readonly #groupOf: (value: V) => string;
  readonly #groups = new Map<string, Set<K>>();

  constructor(groupOf: (value: V) => string) {
    this.#groupOf = groupOf;
  }

  /** The committed keys whose value is in `group` (read-only; do not keep across commits). */
  keysOf(group: string): ReadonlySet<K> {
    return this.#groups.get(group) ?? new Set();
  }

  /** Records that `key` went from `previous` to `next` (undefined: absent) in the committed Map. */
  update(key: K, previous: V | undefined, next: V | undefined): void {
    const from = previous === undefined ? undefined : this.#groupOf(previous);
    const to = next === undefined ? undefined : this.#groupOf(next);
    if (from === to) return;
    if (from !== undefined) {
      const keys = this.#groups.get(from);
      keys?.delete(key);
      if (keys?.size === 0) this.#groups.delete(from);
    }
    if (to !== undefined) {
      const keys = this.#groups.get(to) ?? new Set<K>();
      keys.add(key);
      this.#groups.set(to, keys);
    }
  }
}
