export type Settled<T, R> =
  | { readonly ok: true; readonly item: T; readonly value: R }
  | { readonly ok: false; readonly item: T; readonly error: unknown };

/**
 * Runs `task` over `items` with at most `concurrency` in flight and settles every started task.
 * After the first failure no new task starts (the caller compensates what already succeeded), and
 * items never started are left out of the result.
 */
export const settleWithConcurrency = async <T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
): Promise<Settled<T, R>[]> => {
  const settled: Settled<T, R>[] = [];
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        settled.push({ ok: true, item, value: await task(item) });
      } catch (error) {
        failed = true;
        settled.push({ ok: false, item, error });
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(concurrency), items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return settled;
};
