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
