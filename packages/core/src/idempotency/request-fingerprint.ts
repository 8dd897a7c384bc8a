import { portableTextHashing, type TextHashing } from '../ports/text-hashing.js';

/** JSON with object keys sorted at every depth, so key order never changes a fingerprint. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
};

/** SHA-256 (hex) of the canonical JSON of a request body: what "the same request" means. */
export const fingerprintRequestBody = (body: unknown, hashing: TextHashing = portableTextHashing): string =>
  hashing.sha256Hex(canonicalJson(body));
