import { toJsonPath } from '../validation/parse-request.js';

/**
 * Every document field of the onboarding payloads ends in `Documents` (`idDocuments`,
 * `supportingDocuments`, `thirdPartyBankAccountOwnerDocuments`, …): one walk finds them all,
 * wherever they sit, so a new document field needs no new code here.
 */
const isDocumentField = (key: string) => key.endsWith('Documents');

export type DocumentReference = { readonly path: string; readonly filename: string };

/** Each filename a payload names, with the JSON path of its array entry. */
export const collectDocumentReferences = (payload: unknown): DocumentReference[] => {
  const references: DocumentReference[] = [];
  // The path of the value being walked, as segments: written out only for a reference found, since
  // most of a payload holds none (this runs on every create and resubmission).
  const segments: PropertyKey[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        segments.push(index);
        walk(value[index]);
        segments.pop();
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const child: unknown = (value as Record<string, unknown>)[key];
      segments.push(key);
      if (isDocumentField(key) && Array.isArray(child)) {
        for (let index = 0; index < child.length; index += 1) {
          const filename: unknown = child[index];
          if (typeof filename === 'string')
            references.push({ path: toJsonPath([...segments, index]), filename });
        }
      } else {
        walk(child);
      }
      segments.pop();
    }
  };
  walk(payload);
  return references;
};

/** Sets `key` on `target` as data, an own `__proto__` key included (plain assignment would set the prototype). */
const setMember = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
};

/**
 * `payload` with every document filename replaced by its permanent key. Only what leads to a
 * document filename is new (the objects and arrays on the way, and the document arrays themselves);
 * every other part is `payload`'s own, shared rather than copied: a create's payload is mostly
 * profile, accounts and wallets, and this runs on every create and resubmission. `payload` itself
 * is never changed.
 */
export const replaceDocumentReferences = <T>(payload: T, keyOf: (filename: string) => string): T => {
  const replaced = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index += 1) {
        const item: unknown = value[index];
        const next = replaced(item);
        if (next !== item) {
          copy ??= value.slice();
          copy[index] = next;
        }
      }
      return copy ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const next =
        isDocumentField(key) && Array.isArray(child)
          ? child.some((filename: unknown) => typeof filename === 'string')
            ? child.map((filename: unknown) => (typeof filename === 'string' ? keyOf(filename) : filename))
            : child
          : replaced(child);
      if (next !== child) {
        // A spread defines its members, so an own `__proto__` key stays data here too.
        copy ??= { ...record };
        setMember(copy, key, next);
      }
    }
    return copy ?? value;
  };
  return replaced(payload) as T;
};
