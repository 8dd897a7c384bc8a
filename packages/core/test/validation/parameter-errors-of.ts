import { expect } from 'vitest';
import type { z } from 'zod';
import type { ParameterErrors } from '../../src/errors.js';
import { parseRequest } from '../../src/validation/parse-request.js';

/** The parameterErrors of a refused input; fails the test when the input is accepted. */
export const parameterErrorsOf = (schema: z.ZodType, input: unknown): ParameterErrors => {
  const parsed = parseRequest(schema, input);
  expect(parsed.isErr(), `expected a ValidationFailed for ${JSON.stringify(input)}`).toBe(true);
  return parsed.isErr() ? (parsed.error.parameterErrors ?? {}) : {};
};

/** The parsed value of an accepted input; fails the test with the errors when it is refused. */
export const parsedValueOf = <S extends z.ZodType>(schema: S, input: unknown): z.infer<S> => {
  const parsed = parseRequest(schema, input);
  if (parsed.isErr())
    expect.fail(`expected a valid input, got ${JSON.stringify(parsed.error.parameterErrors)}`);
  return parsed._unsafeUnwrap();
};
