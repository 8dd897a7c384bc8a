import { err, ok, type Result } from 'neverthrow';
import { type ValidationFailed, validationFailed } from '../errors.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const visibleAscii = /^[\x21-\x7e]+$/;

// `parameterErrors` names request-body paths only; a header problem is told in `reason`.
const refuse = (message: string): Result<never, ValidationFailed> =>
  err(validationFailed(`Invalid Idempotency-Key header: ${message}`, null));

/** Unquotes an RFC 8941 sf-string (`"abc"`, with `\"` and `\\` escapes), or null when it is not one. */
const unquoteStructuredFieldString = (value: string): string | null => {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return null;
  let out = '';
  for (let i = 1; i < value.length - 1; i += 1) {
    const char = value.charAt(i);
    if (char === '\\') {
      const next = value.charAt(i + 1);
      if ((next !== '"' && next !== '\\') || i + 1 >= value.length - 1) return null;
      out += next;
      i += 1;
    } else if (char === '"') {
      return null;
    } else {
      out += char;
    }
  }
  return out;
};

/**
 * Reads the `Idempotency-Key` header (decisions §5): absent → null (the request runs normally);
 * otherwise 1..255 visible ASCII characters, optionally as a quoted structured-field string.
 * Empty, longer, or several values (a comma, a repeated header) are refused.
 */
export const parseIdempotencyKey = (
  header: string | readonly string[] | undefined,
): Result<string | null, ValidationFailed> => {
  if (header === undefined) return ok(null);
  if (typeof header !== 'string') {
    if (header.length !== 1) return refuse('send exactly one Idempotency-Key header');
    return parseIdempotencyKey(header[0]);
  }
  const trimmed = header.trim();
  if (trimmed === '') return refuse('must not be empty');
  const unquoted = trimmed.startsWith('"') ? unquoteStructuredFieldString(trimmed) : trimmed;
  if (unquoted === null) return refuse('a quoted value must be one well-formed structured-field string');
  if (unquoted !== trimmed && unquoted === '') return refuse('must not be empty');
  if (unquoted === trimmed && trimmed.includes(',')) return refuse('send exactly one value (no comma)');
  if (unquoted.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return refuse(`must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  if (!visibleAscii.test(unquoted)) return refuse('must be visible ASCII characters only');
  return ok(unquoted);
};
