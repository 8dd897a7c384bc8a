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
