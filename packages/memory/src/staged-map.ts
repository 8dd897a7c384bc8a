import { frozenCopy, type TransactionCopies } from './frozen-copy.js';
import type { KeyGroups } from './key-groups.js';

const removed: unique symbol = Symbol('removed');

/**
 * A view over a committed Map whose writes are staged until `commit`. Values are stored as frozen
 * copies and handed out as they are, so no caller can change stored state through an object it
 * passed or received. `I` names the map's indexes (KeyGroups over its committed values).
 */
export class StagedMap<K extends string | number, V, I extends string = never> {
  readonly #committed: Map<K, V>;
  readonly #staged = new Map<K, V | typeof removed>();
  readonly #indexes: Readonly<Record<I, KeyGroups<K, V>>>;
  readonly #copies: TransactionCopies | undefined;

  /**
   * `copies` are the frozen copies of the transaction this view belongs to, shared by its maps;
   * `indexes`, by name, index `committed` and are kept up to date by `commit`.
   */
  constructor(
    committed: Map<K, V>,
    copies?: TransactionCopies,
    indexes: Readonly<Record<I, KeyGroups<K, V>>> = {} as Record<I, KeyGroups<K, V>>,
  ) {
    this.#committed = committed;
    this.#copies = copies;
    this.#indexes = indexes;
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
    this.#staged.set(key, frozenCopy(value, this.#copies));
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

  /**
   * The values of `group` of the index `index` matching `predicate`: the group's committed keys, in
   * the order they were committed, then the staged values. `predicate` must itself check
   * membership of the group, since a staged value may belong to any.
   */
  selectWithin(index: I, group: string, predicate: (value: V, key: K) => boolean): V[] {
    const selected: V[] = [];
    for (const key of this.#indexes[index].keysOf(group)) {
      const value = this.#committed.get(key);
      if (value !== undefined && !this.#staged.has(key) && predicate(value, key)) selected.push(value);
    }
    for (const [key, value] of this.#staged) {
      if (value !== removed && predicate(value, key)) selected.push(value);
    }
    return selected;
  }

  /**
   * Whether at least `n` values of `group` of the index `index` match `predicate` (see
   * `selectWithin`): false at once when the group holds fewer than `n` values at all, otherwise a
   * scan that stops at the `n`th.
   */
  hasAtLeastWithin(index: I, group: string, predicate: (value: V, key: K) => boolean, n: number): boolean {
    const keys = this.#indexes[index].keysOf(group);
    if (keys.size + this.#staged.size < n) return false;
    let counted = 0;
    for (const key of keys) {
      if (counted >= n) return true;
      const value = this.#committed.get(key);
      if (value !== undefined && !this.#staged.has(key) && predicate(value, key)) counted += 1;
    }
    for (const [key, value] of this.#staged) {
      if (counted >= n) return true;
      if (value !== removed && predicate(value, key)) counted += 1;
    }
    return counted >= n;
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
    // Most of a transaction's maps have nothing staged.
    if (this.#staged.size === 0) return;
    const indexes = Object.values<KeyGroups<K, V>>(this.#indexes);
    for (const [key, value] of this.#staged) {
      const previous = this.#committed.get(key);
      for (const index of indexes) index.update(key, previous, value === removed ? undefined : value);
      if (value === removed) this.#committed.delete(key);
      else this.#committed.set(key, value);
    }
    this.#staged.clear();
  }
}
