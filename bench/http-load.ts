import autocannon from 'autocannon';

export type LoadRequest = {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A fixed body, sent with every request. */
  readonly body?: string;
  /** The body and extra headers of the n-th request sent to this target (n counts from 0, warm-up included). */
  readonly perRequest?: (n: number) => { body: string; headers?: Readonly<Record<string, string>> };
};

/** One server under load and what is sent to it. */
export type LoadTarget = { readonly label: string; readonly origin: string; readonly request: LoadRequest };

export type LoadResult = {
  readonly requestsPerSecond: number;
  /** The rate of each measured round, in order. */
  readonly roundRates: readonly number[];
  /** The median latency of each measured round, in order. */
  readonly roundLatencyP50Ms: readonly number[];
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  /** Requests of the warm-up, not counted in the rest. */
  readonly warmUpRequests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
};

export type LoadOptions = {
  readonly connections: number;
  readonly warmUpSeconds: number;
  /** Measured rounds per target, alternating between the targets. */
  readonly rounds: number;
  readonly roundSeconds: number;
  /** Runs once every target is warmed up, before the first measured round. */
  readonly afterWarmUp?: () => Promise<unknown>;
};

type RoundOutcome = autocannon.Result;

const runRound = (target: LoadTarget, connections: number, seconds: number, next: () => number) =>
  autocannon({
    url: target.origin,
    connections,
    duration: seconds,
    requests: [
      {
        method: target.request.method,
        path: target.request.path,
        headers: { ...target.request.headers },
        ...(target.request.body === undefined ? {} : { body: target.request.body }),
        ...(target.request.perRequest === undefined
          ? {}
          : {
              // Each request carries a body of its own (a file of its own, a key of its own).
              setupRequest: (req: autocannon.Request) => {
                const own = target.request.perRequest?.(next());
                return { ...req, body: own?.body, headers: { ...req.headers, ...own?.headers } };
              },
            }),
      },
    ],
  });

const summarize = (warmUp: RoundOutcome | undefined, rounds: readonly RoundOutcome[]): LoadResult => {
  const requests = rounds.reduce((sum, round) => sum + round.requests.total, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.duration, 0);
  const weighted = (pick: (round: RoundOutcome) => number) =>
    rounds.reduce((sum, round) => sum + pick(round) * round.requests.total, 0) / Math.max(requests, 1);
  return {
    requestsPerSecond: requests / seconds,
    roundRates: rounds.map((round) => round.requests.total / round.duration),
    roundLatencyP50Ms: rounds.map((round) => round.latency.p50),
    latencyP50Ms: weighted((round) => round.latency.p50),
    latencyP99Ms: Math.max(...rounds.map((round) => round.latency.p99)),
    requests,
    warmUpRequests: warmUp?.requests.total ?? 0,
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    timeouts: rounds.reduce((sum, round) => sum + round.timeouts, 0),
  };
};

/**
 * Warms every target up, then measures them in alternating rounds (A B A B …), so that a change of
 * background load on the machine weighs on both sides alike. Warm-up requests are not counted, but
 * they do use up request numbers (each request keeps a number of its own).
 */
export const measureAlternating = async (
  targets: readonly LoadTarget[],
  options: LoadOptions,
): Promise<LoadResult[]> => {
  const counters = targets.map(() => {
    let count = 0;
    return () => {
      count += 1;
      return count - 1;
    };
  });
  const rounds: RoundOutcome[][] = targets.map(() => []);
  const warmUps: RoundOutcome[] = [];
  for (const [index, target] of targets.entries()) {
    warmUps.push(
      await runRound(target, options.connections, options.warmUpSeconds, counters[index] ?? (() => 0)),
    );
  }
  await options.afterWarmUp?.();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [index, target] of targets.entries()) {
      const outcome = await runRound(
        target,
        options.connections,
        options.roundSeconds,
        counters[index] ?? (() => 0),
      );
      rounds[index]?.push(outcome);
    }
  }
  return rounds.map((measured, index) => summarize(warmUps[index], measured));
};
