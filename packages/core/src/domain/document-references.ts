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

/** A copy of `payload` where every document filename is replaced by its permanent key. */
export const replaceDocumentReferences = <T>(payload: T, keyOf: (filename: string) => string): T => {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const child: unknown = (value as Record<string, unknown>)[key];
      const replaced =
        isDocumentField(key) && Array.isArray(child)
          ? child.map((filename: unknown) => (typeof filename === 'string' ? keyOf(filename) : filename))
          : copy(child);
      // An own `__proto__` key stays data: plain assignment would set the copy's prototype instead.
      if (key === '__proto__') {
        Object.defineProperty(result, key, {
          value: replaced,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        result[key] = replaced;
      }
    }
    return result;
  };
  return copy(payload) as T;
};
