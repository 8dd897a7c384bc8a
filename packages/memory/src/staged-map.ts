import { frozenCopy } from './frozen-copy.js';

const removed: unique symbol = Symbol('removed');

/**
 * A view over a committed Map whose writes are staged until `commit`. Values are stored as frozen
 * copies and handed out as they are, so no caller can change stored state through an object it
 * passed or received.
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
    return this.#current(key);
  }

  has(key: K): boolean {
    return this.#current(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.#staged.set(key, frozenCopy(value));
  }

  delete(key: K): void {
    this.#staged.set(key, removed);
  }

  /** The values matching `predicate`. */
  select(predicate: (value: V, key: K) => boolean): V[] {
    const selected: V[] = [];
    for (const [key, value] of this.#committed) {
      if (!this.#staged.has(key) && predicate(value, key)) selected.push(value);
    }
    for (const [key, value] of this.#staged) {
      if (value !== removed && predicate(value, key)) selected.push(value);
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

  /** How many entries match `predicate`, counting no further than `atMost`. */
  count(predicate: (value: V, key: K) => boolean, atMost: number): number {
    let counted = 0;
    for (const [key, value] of this.#committed) {
      if (counted >= atMost) return counted;
      if (!this.#staged.has(key) && predicate(value, key)) counted += 1;
    }
    for (const [key, value] of this.#staged) {
      if (counted >= atMost) return counted;
      if (value !== removed && predicate(value, key)) counted += 1;
    }
    return counted;
  }

  /** How many entries the view holds. */
  size(): number {
    let size = this.#committed.size;
    for (const [key, value] of this.#staged) {
      const inCommitted = this.#committed.has(key);
      if (value === removed) size -= inCommitted ? 1 : 0;
      else size += inCommitted ? 0 : 1;
    }
    return size;
  }

  commit(): void {
    for (const [key, value] of this.#staged) {
      if (value === removed) this.#committed.delete(key);
      else this.#committed.set(key, value);
    }
    this.#staged.clear();
  }
}
