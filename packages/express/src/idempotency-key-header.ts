import { type ValidationFailed, validationFailed } from '@onboarding-kit/core';
import { err, ok, type Result } from 'neverthrow';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const visibleAscii = /^[\x21-\x7E]+$/;
/** An RFC 8941 sf-string: printable ASCII in quotes, with `\"` and `\\` the only escapes. */
const structuredFieldString = /^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*)"$/;

const invalid = (why: string): ValidationFailed =>
  validationFailed(`The ${IDEMPOTENCY_KEY_HEADER} header ${why}`, null);

/**
 * Reads `Idempotency-Key` (decisions §5): absent → null; one value of 1..255 visible ASCII
 * characters, or an sf-string in quotes (unquoted here); anything else is 400. `rawHeaders` is read
 * because Node joins a repeated header with a comma before anyone can count it.
 */
export const parseIdempotencyKeyHeader = (request: {
  readonly rawHeaders: readonly string[];
}): Result<string | null, ValidationFailed> => {
  const values: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]?.toLowerCase() === 'idempotency-key') {
      values.push(request.rawHeaders[index + 1] ?? '');
    }
  }
  const [value, ...others] = values;
  if (value === undefined) return ok(null);
  if (others.length > 0) return err(invalid('must be sent once, with one value'));
  const raw = value.trim();
  const quoted = raw.startsWith('"') ? structuredFieldString.exec(raw) : null;
  if (raw.startsWith('"') && quoted === null) return err(invalid('is not a valid quoted string'));
  const key = quoted ? (quoted[1] ?? '').replace(/\\(["\\])/g, '$1') : raw;
  if (!quoted && key.includes(',')) return err(invalid('must carry one value, not a list'));
  if (key.length === 0) return err(invalid('must not be empty'));
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return err(invalid(`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`));
  }
  if (!visibleAscii.test(key)) return err(invalid('must hold visible ASCII characters only'));
  return ok(key);
};
