import { err, ok, type Result } from 'neverthrow';
import { type ValidationFailed, validationFailed } from '../errors.js';

/**
 * The deepest nesting of arrays and objects a fingerprinted body may have. Real payloads nest a
 * few levels; a body nested thousands deep (a few bytes a level) would otherwise exhaust the stack,
 * and a cyclic in-process body would never end.
 */
export const MAX_BODY_NESTING = 256;

/** Why a body has no fingerprint: nested too deeply (or cyclic), or holding a value JSON cannot write. */
const unfingerprintable = (reason: string): ValidationFailed => validationFailed(reason, { body: [reason] });

const TOO_DEEP = `The request body is nested too deeply (more than ${MAX_BODY_NESTING} levels)`;
const NOT_JSON = 'The request body holds a value JSON cannot represent (a BigInt)';

/** Set when the walk meets a value it cannot write; the text built so far is then dropped. */
type Walk = { failure: string | undefined };

const write = (value: unknown, depth: number, walk: Walk): string => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') {
      walk.failure = NOT_JSON;
      return '';
    }
    return JSON.stringify(value) ?? 'null';
  }
  if (depth >= MAX_BODY_NESTING) {
    walk.failure = TOO_DEEP;
    return '';
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      if (index in value) text += write(value[index], depth + 1, walk);
      if (walk.failure !== undefined) return '';
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
    text += `${JSON.stringify(key)}:${write(member, depth + 1, walk)}`;
    if (walk.failure !== undefined) return '';
  }
  return `${text}}`;
};

/**
 * JSON with object keys sorted at every depth, so key order never changes a fingerprint. Stored
 * fingerprints compare with new ones across versions, so the text must never change: keys in
 * UTF-16 code unit order, members whose value is `undefined` left out, a primitive as
 * `JSON.stringify` writes it (`null` when it writes nothing), an array hole as nothing at all.
 * Built with one string and no intermediate arrays: every keyed request hashes its whole body.
 * Err (400 at `body`): nested deeper than `MAX_BODY_NESTING` (a cycle included), or a BigInt.
 */
export const canonicalJson = (value: unknown): Result<string, ValidationFailed> => {
  const walk: Walk = { failure: undefined };
  const text = write(value, 0, walk);
  return walk.failure === undefined ? ok(text) : err(unfingerprintable(walk.failure));
};
