import type { ResultAsync } from 'neverthrow';

/** The Ok value of a result, or a test failure that shows the error. */
export const expectOk = async <T, E>(result: ResultAsync<T, E>): Promise<T> => {
  const settled = await result;
  if (settled.isErr()) throw new Error(`expected Ok, got ${JSON.stringify(settled.error)}`);
  return settled.value;
};
