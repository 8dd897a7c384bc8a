import { parseIdempotencyKey, type ValidationFailed } from '@onboarding-kit/core/adapter';
import type { Result } from 'neverthrow';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Reads `Idempotency-Key` with core's rule (decisions §5). `rawHeaders` is read because Node joins
 * a repeated header with a comma before anyone can count it.
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
  return parseIdempotencyKey(values.length === 0 ? undefined : values);
};
