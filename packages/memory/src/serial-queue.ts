/** Runs tasks one after the other, in call order: the lock of the in-memory transactions. */
export type SerialQueue = { run<T>(task: () => Promise<T>): Promise<T> };

export const createSerialQueue = (): SerialQueue => {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run: (task) => {
      const result = tail.then(task);
      // The next task waits for this one however it ends.
      tail = result.catch(() => undefined);
      return result;
    },
  };
};
