/**
 * A deep copy that can no longer change: stored values are copied once on the way in and handed
 * out as they are, so no caller can alter stored state through an object it passed or received
 * (a write to a frozen object throws in strict mode) and reads cost no copy.
 *
 * What the stores hold is JSON-like data (plain objects, arrays, strings, numbers, booleans,
 * null), copied and frozen in one pass; anything else (a Date, a typed array) goes through
 * `structuredClone` and is frozen at its top.
 */
export const frozenCopy = <T>(value: T, copies?: TransactionCopies): T => copyFrozen(value, copies) as T;

/**
 * The frozen copies made within one transaction, by the object each copies: an object written
 * twice in one transaction is copied once and its copy stored in both places. A create writes its
 * client and a `client.created` event that carries the same profile, accounts and wallets: the
 * event shares the client's frozen parts instead of holding a second copy of them (less to copy,
 * less kept in memory). An object is copied at its first write: a change made to it before a
 * second write in the same transaction is not seen (core writes values it has just built and never
 * changes them). The copies are forgotten with the transaction.
 */
export class TransactionCopies {
  #byOriginal: Map<object, unknown> | undefined;

  get(original: object): unknown {
    return this.#byOriginal?.get(original);
  }

  set(original: object, copy: unknown): void {
    this.#byOriginal ??= new Map();
    this.#byOriginal.set(original, copy);
  }
}

const copyFrozen = (value: unknown, copies: TransactionCopies | undefined): unknown => {
  if (value === null || typeof value !== 'object') return value;
  const known = copies?.get(value);
  if (known !== undefined) return known;
  const copy = copyObjectFrozen(value, copies);
  copies?.set(value, copy);
  return copy;
};

const copyObjectFrozen = (value: object, copies: TransactionCopies | undefined): unknown => {
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) copy[index] = copyFrozen(value[index], copies);
    return Object.freeze(copy);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const clone: unknown = structuredClone(value);
    // Typed arrays cannot be frozen; they are copies no caller holds.
    return ArrayBuffer.isView(clone) ? clone : Object.freeze(clone);
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = copyFrozen((value as Record<string, unknown>)[key], copies);
    // An own `__proto__` key stays data: plain assignment would set the copy's prototype instead.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: child,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = child;
    }
  }
  return Object.freeze(copy);
};
