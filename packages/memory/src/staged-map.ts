import { frozenCopy, type TransactionCopies } from './frozen-copy.js';
import type { KeyGroups } from './key-groups.js';

const removed: unique symbol = Symbol('removed');

/**
 * A view over a committed Map whose writes are staged until `commit`. Values are stored as frozen
 * copies and handed out as they are, so no caller can change stored state through an object it
 * passed or received.
 */
export class StagedMap<K, V> {
  readonly #committed: Map<K, V>;
  readonly #staged = new Map<K, V | typeof removed>();
  readonly #groups: KeyGroups<K, V> | undefined;
  readonly #copies: TransactionCopies | undefined;

  /**
   * `copies` are the frozen copies of the transaction this view belongs to, shared by its maps;
   * `groups`, when given, indexes `committed` and is kept up to date by `commit`.
   */
  constructor(committed: Map<K, V>, copies?: TransactionCopies, groups?: KeyGroups<K, V>) {
    this.#committed = committed;
    this.#copies = copies;
    this.#groups = groups;
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
   * The values of `group` (of the KeyGroups this map was given) matching `predicate`: the group's
   * committed keys, then the staged values. `predicate` must itself check membership of the group,
   * since a staged value may belong to any.
   */
  selectWithin(group: string, predicate: (value: V, key: K) => boolean): V[] {
    if (this.#groups === undefined) return this.select(predicate);
    const selected: V[] = [];
    for (const key of this.#groups.keysOf(group)) {
      const value = this.#committed.get(key);
      if (value !== undefined && !this.#staged.has(key) && predicate(value, key)) selected.push(value);
    }
    for (const [key, value] of this.#staged) {
      if (value !== removed && predicate(value, key)) selected.push(value);
    }
    return selected;
  }

  /**
   * Whether at least `n` values of `group` match `predicate` (see `selectWithin`): false at once
   * when the group holds fewer than `n` values at all, otherwise a scan that stops at the `n`th.
   */
  hasAtLeastWithin(group: string, predicate: (value: V, key: K) => boolean, n: number): boolean {
    if (this.#groups === undefined) return this.count(predicate, n) >= n;
    const keys = this.#groups.keysOf(group);
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
    for (const [key, value] of this.#staged) {
      this.#groups?.update(key, this.#committed.get(key), value === removed ? undefined : value);
      if (value === removed) this.#committed.delete(key);
      else this.#committed.set(key, value);
    }
    this.#staged.clear();
  }
}
