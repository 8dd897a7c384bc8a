import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { type ParameterErrors, type ValidationFailed, validationFailed } from '../errors.js';

/** `['bankAccounts', 0, 'identifiers', 'iban']` → `bankAccounts[0].identifiers.iban`. */
export const toJsonPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((acc, segment) => {
    if (typeof segment === 'number') return `${acc}[${segment}]`;
    const name = String(segment);
    return acc === '' ? name : `${acc}.${name}`;
  }, '');

/** Collects zod issues into `parameterErrors`, one JSON path → messages. */
export const toParameterErrors = (
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
) => {
  const errors: ParameterErrors = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const at = toJsonPath([...prefix, ...issue.path, key]);
        errors[at] = [...(errors[at] ?? []), 'Unknown property'];
      }
      continue;
    }
    const at = toJsonPath([...prefix, ...issue.path]) || '$';
    errors[at] = [...(errors[at] ?? []), issue.message];
  }
  return errors;
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
