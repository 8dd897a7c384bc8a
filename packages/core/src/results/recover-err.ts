import { ok, type Result, ResultAsync } from 'neverthrow';

/**
 * `result.orElse(recover)` in one `then`: an Ok passes through as it is, an Err becomes what
 * `recover` answers. neverthrow's `orElse` (like its `map` and `mapErr`) runs every result, Ok
 * included, through a generator-based awaiter: more promises and objects on each request's path.
 * Use it where the Ok is the common way through.
 */
export const recoverErr = <T, E, U, F>(
  result: ResultAsync<T, E>,
  recover: (error: E) => ResultAsync<U, F> | Result<U, F>,
): ResultAsync<T | U, F> =>
  new ResultAsync<T | U, F>(
    // ResultAsync's `then` is its inner promise's `then`, typed PromiseLike: it returns a Promise.
    result.then((settled): Result<T, F> | Result<U, F> | PromiseLike<Result<U, F>> =>
      settled.isOk() ? ok(settled.value) : recover(settled.error),
    ) as Promise<Result<T | U, F>>,
  );
