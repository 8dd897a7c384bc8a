import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { type ParameterErrors, type ValidationFailed, validationFailed } from '../errors.js';

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `['bankAccounts', 0, 'identifiers', 'iban']` → `bankAccounts[0].identifiers.iban`. A key that is
 * not a plain name (empty, with a dot, space or `$`, as an unknown property may be) is written
 * `["a.b"]`, so every path is unambiguous and none is empty or `$` (the whole body).
 */
export const toJsonPath = (path: readonly PropertyKey[]): string => path.reduce<string>(appendToJsonPath, '');

/** One segment more on a JSON path: `[0]` for an index, `.name` (or `["a.b"]`) for a key. */
export const appendToJsonPath = (path: string, segment: PropertyKey): string => {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  const name = String(segment);
  if (!PLAIN_KEY.test(name)) return `${path}[${JSON.stringify(name)}]`;
  return path === '' ? name : `${path}.${name}`;
};

/**
 * Collects zod issues into `parameterErrors`, one JSON path → messages. Paths come from the
 * caller's keys (`valueOf`, `__proto__`), so they are gathered in a Map, never looked up on an
 * object's prototype chain, and written as own properties.
 */
export const toParameterErrors = (
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): ParameterErrors => {
  const errors = new Map<string, string[]>();
  const add = (at: string, message: string) => {
    const messages = errors.get(at);
    if (messages === undefined) errors.set(at, [message]);
    else messages.push(message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(toJsonPath([...prefix, ...issue.path, key]), 'Unknown property');
      continue;
    }
    add(toJsonPath([...prefix, ...issue.path]) || '$', issue.message);
  }
  return Object.fromEntries(errors);
};

/** Validates untrusted input with a schema; never throws. */
export const parseRequest = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  reason = 'The request body is invalid',
): Result<z.infer<S>, ValidationFailed> => {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? ok(parsed.data)
    : err(validationFailed(reason, toParameterErrors(parsed.error.issues)));
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Identifiers are UUIDs, and ids reach the kit from URL paths: anything else cannot name a
 * resource, so it is "not found" without a lookup (and never reaches a uuid column as an error).
 */
export const isUuid = (value: string): boolean => uuidPattern.test(value);

/**
 * Text every back end can store and every client can read back: no NUL (PostgreSQL's `text` refuses
 * it) and no unpaired UTF-16 surrogate (it has no UTF-8 form: PostgreSQL refuses it, and JSON,
 * `encodeURIComponent` and `TextEncoder` each treat it differently). Every string of a request body,
 * query or document name is checked against this before it reaches a port, so the refusal is the
 * same 400 at the field's path on every back end.
 */

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNPAIRED_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSTORABLE = new RegExp(`\\u0000|${UNPAIRED_SURROGATE}`);
const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE, 'g');

export const UNSTORABLE_TEXT_MESSAGE = 'Must not contain NUL or unpaired surrogate characters';

/** True when `value` holds a character no back end can store (see the module comment). */
export const hasUnstorableCharacter = (value: string): boolean => UNSTORABLE.test(value);

/** `value` with every unpaired surrogate replaced by U+FFFD, as `String.prototype.toWellFormed` does. */
export const toWellFormedText = (value: string): string => value.replace(UNPAIRED_SURROGATES, '\ufffd');

/** The negation of `hasUnstorableCharacter`, for schema refinements. */
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/**
 * A name must hold at least one letter (Unicode category L, any script): `.`, `-`, `123`, an emoji
 * or a lone right-to-left mark names nobody, and screening such a "name" finds nothing, which
 * would let a client pass screening without a name to screen. Marks, digits, punctuation and
 * format characters around a letter are the screening's to normalize.
 */
const LETTER = /\p{L}/u;

export const NAME_WITHOUT_LETTER_MESSAGE = 'Must contain a letter';

/** True when `name` holds a letter of any script. */
export const hasLetter = (name: string): boolean => LETTER.test(name);

/**
 * Characters that reorder the text around them on screen (bidirectional embeddings, overrides and
 * isolates, U+202A–U+202E and U+2066–U+2069): `\u202EvolokoS` shows as `Sokolov` to a reviewer
 * while the screening reads `volokoS`. No name needs them (the marks U+200E, U+200F and U+061C,
 * which move no letter, stay allowed): a name holding one is refused.
 */
const DIRECTION_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/u;

export const DIRECTION_OVERRIDE_MESSAGE =
  'Must not contain bidirectional embedding, override or isolate characters (U+202A-U+202E, U+2066-U+2069)';

/** True when `name` holds no character that reorders the text it is shown in. */
export const keepsItsOrder = (name: string): boolean => !DIRECTION_OVERRIDE.test(name);
