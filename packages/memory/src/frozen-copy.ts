/**
 * A deep copy that can no longer change: stored values are copied once on the way in and handed
 * out as they are, so no caller can alter stored state through an object it passed or received
 * (a write to a frozen object throws in strict mode) and reads cost no copy.
 *
 * What the stores hold is JSON-like data (plain objects, arrays, strings, numbers, booleans,
 * null), copied and frozen in one pass; anything else (a Date, a typed array) goes through
 * `structuredClone` and is frozen at its top.
 */
export const frozenCopy = <T>(value: T): T => copyFrozen(value) as T;

const copyFrozen = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) copy[index] = copyFrozen(value[index]);
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
    const child = copyFrozen((value as Record<string, unknown>)[key]);
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
