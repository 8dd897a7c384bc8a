import { err, ok, type Result, ResultAsync } from 'neverthrow';

/**
 * Like `ResultAsync.combine`, but the work is started by `start(item)` with at most `limit` of
 * them running at once. The first Err stops further starts (those already running finish) and is
 * the answer; otherwise the values, in the order of `items`.
 */
export const combineBounded = <I, T, E>(
  items: readonly I[],
  limit: number,
  start: (item: I) => ResultAsync<T, E>,
): ResultAsync<T[], E> => {
  const values = new Array<T>(items.length);
  let next = 0;
  let failure: Result<never, E> | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const index = next;
      next += 1;
      const outcome = await start(items[index] as I);
      if (outcome.isErr()) failure ??= err(outcome.error);
      else values[index] = outcome.value;
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  return new ResultAsync(Promise.all(workers).then(() => failure ?? ok(values)));
};
