import { portableTextHashing, type TextHashing } from '../ports/text-hashing.js';

/**
 * JSON with object keys sorted at every depth, so key order never changes a fingerprint. Stored
 * fingerprints compare with new ones across versions, so the text must never change: keys in
 * UTF-16 code unit order, members whose value is `undefined` left out, a primitive as
 * `JSON.stringify` writes it (`null` when it writes nothing), an array hole as nothing at all.
 * Built with one string and no intermediate arrays: every keyed request hashes its whole body.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      if (index in value) text += canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, as `<` does.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
};

/** SHA-256 (hex) of the canonical JSON of a request body: what "the same request" means. */
export const fingerprintRequestBody = (body: unknown, hashing: TextHashing = portableTextHashing): string =>
  hashing.sha256Hex(canonicalJson(body));
