import { appendToJsonPath } from '../validation/parse-request.js';

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
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) walk(value[index], appendToJsonPath(path, index));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const child: unknown = (value as Record<string, unknown>)[key];
      const childPath = appendToJsonPath(path, key);
      if (isDocumentField(key) && Array.isArray(child)) {
        child.forEach((filename, index) => {
          if (typeof filename === 'string') {
            references.push({ path: appendToJsonPath(childPath, index), filename });
          }
        });
      } else {
        walk(child, childPath);
      }
    }
  };
  walk(payload, '');
  return references;
};

/** A copy of `payload` where every document filename is replaced by its permanent key. */
export const replaceDocumentReferences = <T>(payload: T, keyOf: (filename: string) => string): T => {
  const map = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(map);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        isDocumentField(key) && Array.isArray(child)
          ? child.map((filename) => (typeof filename === 'string' ? keyOf(filename) : filename))
          : map(child),
      ]),
    );
  };
  return map(payload) as T;
};
