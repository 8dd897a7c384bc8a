const removed: unique symbol = Symbol('removed');

/**
 * A view over a committed Map whose writes are staged until `commit`. Values are cloned on the way
 * in and out, so no caller can change stored state by mutating an object it passed or received.
 */
export class StagedMap<K, V> {
  readonly #committed: Map<K, V>;
  readonly #staged = new Map<K, V | typeof removed>();

  constructor(committed: Map<K, V>) {
    this.#committed = committed;
  }

  #current(key: K): V | undefined {
    const staged = this.#staged.get(key);
    if (staged === removed) return undefined;
    return staged ?? this.#committed.get(key);
  }

  get(key: K): V | undefined {
    const value = this.#current(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  has(key: K): boolean {
    return this.#current(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.#staged.set(key, structuredClone(value));
  }

  delete(key: K): void {
    this.#staged.set(key, removed);
  }

  /** Clones of the values matching `predicate` (only those are cloned). */
  select(predicate: (value: V, key: K) => boolean): V[] {
    const selected: V[] = [];
    for (const [key, value] of this.#committed) {
      if (!this.#staged.has(key) && predicate(value, key)) selected.push(structuredClone(value));
    }
    for (const [key, value] of this.#staged) {
      if (value !== removed && predicate(value, key)) selected.push(structuredClone(value));
    }
    return selected;
  }

  /** Keys of the entries matching `predicate`. */
  selectKeys(predicate: (value: V, key: K) => boolean): K[] {
    const keys: K[] = [];
    for (const [key, value] of this.#committed) {
      if (!this.#staged.has(key) && predicate(value, key)) keys.push(key);
    }
    for (const [key, value] of this.#staged) {
      if (value !== removed && predicate(value, key)) keys.push(key);
    }
    return keys;
  }

  commit(): void {
    for (const [key, value] of this.#staged) {
      if (value === removed) this.#committed.delete(key);
      else this.#committed.set(key, value);
    }
    this.#staged.clear();
  }
}
