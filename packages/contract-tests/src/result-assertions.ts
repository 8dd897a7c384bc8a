import type { ResultAsync } from 'neverthrow';
import { expect } from 'vitest';

/** Awaits a port call and returns its Ok value, failing the test with the error otherwise. */
export const expectOk = async <T, E>(result: ResultAsync<T, E>): Promise<T> => {
  const settled = await result;
  if (settled.isErr()) {
    expect.fail(`expected Ok, got Err ${JSON.stringify(settled.error, errorReplacer)}`);
  }
  return settled.value;
};

/** Awaits a port call and returns its Err value, failing the test when it succeeded. */
export const expectErr = async <T, E>(result: ResultAsync<T, E>): Promise<E> => {
  const settled = await result;
  if (settled.isOk()) {
    expect.fail(`expected Err, got Ok ${JSON.stringify(settled.value)}`);
  }
  return settled.error;
};

// `StorageUnavailable.cause` is often an Error, whose fields JSON.stringify would drop.
const errorReplacer = (_key: string, value: unknown) =>
  value instanceof Error ? { name: value.name, message: value.message } : value;
