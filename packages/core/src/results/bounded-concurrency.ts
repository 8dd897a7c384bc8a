import { err, ok, type Result, ResultAsync } from 'neverthrow';

/** One started item and how it ended. */
export type SettledItem<I, T, E> = { readonly item: I; readonly result: Result<T, E> };

/**
 * Starts `start(item)` for the items in order, with at most `limit` running at once; after the
 * first Err no new one starts. Resolves once every started one has settled, to their outcomes in
 * the order of `items` (items never started are left out), so a caller can undo what succeeded.
 */
export const settleBounded = async <I, T, E>(
  items: readonly I[],
  limit: number,
  start: (item: I) => ResultAsync<T, E>,
): Promise<SettledItem<I, T, E>[]> => {
  const settled = new Array<SettledItem<I, T, E> | undefined>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      const item = items[index] as I;
      const result = await start(item);
      if (result.isErr()) failed = true;
      settled[index] = { item, result };
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit), items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return settled.filter((outcome): outcome is SettledItem<I, T, E> => outcome !== undefined);
};

/**
 * `ResultAsync.combine` with at most `limit` running at once (`settleBounded`): the values in the
 * order of `items`, or the first Err (in that order) once every started one has settled.
 */
export const combineBounded = <I, T, E>(
  items: readonly I[],
  limit: number,
  start: (item: I) => ResultAsync<T, E>,
): ResultAsync<T[], E> =>
  new ResultAsync(
    settleBounded(items, limit, start).then((settled) => {
      const values: T[] = [];
      for (const { result } of settled) {
        if (result.isErr()) return err(result.error);
        values.push(result.value);
      }
      return ok(values);
    }),
  );
