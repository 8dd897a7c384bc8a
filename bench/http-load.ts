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
export type LoadTarget = {
  readonly label: string;
  readonly origin: string;
  readonly request: LoadRequest;
  /** The server's CPU time so far in µs, when it is a process of its own (`RunningTarget.cpuMicros`). */
  readonly cpuMicros?: (() => number) | undefined;
};

export type LoadResult = {
  readonly requestsPerSecond: number;
  /** The rate of each measured round, in order. */
  readonly roundRates: readonly number[];
  /** The median latency of each measured round, in order. */
  readonly roundLatencyP50Ms: readonly number[];
  /** The server's CPU time per request in each measured round, in µs (NaN without `cpuMicros`). */
  readonly roundCpuMicrosPerRequest: readonly number[];
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
  /**
   * The slots of round `round` (from 0), in the order they run. A target may have several slots
   * in a round; its rate for the round is its requests over its seconds in them. Default: every
   * target once, in the order given, for `roundSeconds`.
   */
  readonly roundSlots?: (round: number) => readonly RoundSlot[];
};

/** One measured run of one target inside a round: the target's index and its length. */
export type RoundSlot = { readonly target: number; readonly seconds: number };

type RoundOutcome = autocannon.Result;
/** A measured slot: what autocannon saw, and the server's CPU time over it (NaN when not known). */
type SlotOutcome = { readonly load: RoundOutcome; readonly cpuMicros: number };

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

/** The slots one target ran in one round, taken together. */
type TargetRound = {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
};

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** A target's slots of one round as one: its p50 is the slots' p50s weighted by their requests. */
const combineSlots = (outcomes: readonly SlotOutcome[]): TargetRound => {
  const slots = outcomes.map((outcome) => outcome.load);
  const requests = sum(slots.map((slot) => slot.requests.total));
  return {
    requests,
    seconds: sum(slots.map((slot) => slot.duration)),
    cpuMicros: sum(outcomes.map((outcome) => outcome.cpuMicros)),
    latencyP50Ms: sum(slots.map((slot) => slot.latency.p50 * slot.requests.total)) / Math.max(requests, 1),
    latencyP99Ms: Math.max(...slots.map((slot) => slot.latency.p99)),
    non2xx: sum(slots.map((slot) => slot.non2xx)),
    errors: sum(slots.map((slot) => slot.errors)),
    timeouts: sum(slots.map((slot) => slot.timeouts)),
  };
};

const summarize = (warmUp: RoundOutcome | undefined, rounds: readonly TargetRound[]): LoadResult => {
  const requests = sum(rounds.map((round) => round.requests));
  return {
    requestsPerSecond: requests / sum(rounds.map((round) => round.seconds)),
    roundRates: rounds.map((round) => round.requests / round.seconds),
    roundLatencyP50Ms: rounds.map((round) => round.latencyP50Ms),
    roundCpuMicrosPerRequest: rounds.map((round) => round.cpuMicros / round.requests),
    latencyP50Ms: sum(rounds.map((round) => round.latencyP50Ms * round.requests)) / Math.max(requests, 1),
    latencyP99Ms: Math.max(...rounds.map((round) => round.latencyP99Ms)),
    requests,
    warmUpRequests: warmUp?.requests.total ?? 0,
    non2xx: sum(rounds.map((round) => round.non2xx)),
    errors: sum(rounds.map((round) => round.errors)),
    timeouts: sum(rounds.map((round) => round.timeouts)),
  };
};

/**
 * Warms every target up, then measures them in alternating rounds (A B A B …, or the slots
 * `roundSlots` lays out), so that a change of background load on the machine weighs on both sides alike. Warm-up requests are not counted, but
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
  const rounds: TargetRound[][] = targets.map(() => []);
  const warmUps: RoundOutcome[] = [];
  for (const [index, target] of targets.entries()) {
    warmUps.push(
      await runRound(target, options.connections, options.warmUpSeconds, counters[index] ?? (() => 0)),
    );
  }
  await options.afterWarmUp?.();
  const everyTargetOnce = () =>
    targets.map((_, target): RoundSlot => ({ target, seconds: options.roundSeconds }));
  for (let round = 0; round < options.rounds; round += 1) {
    const slots: SlotOutcome[][] = targets.map(() => []);
    for (const slot of options.roundSlots?.(round) ?? everyTargetOnce()) {
      const target = targets[slot.target];
      if (target === undefined) throw new Error(`round ${round}: no target ${slot.target}`);
      const cpuBefore = target.cpuMicros?.() ?? Number.NaN;
      const load = await runRound(
        target,
        options.connections,
        slot.seconds,
        counters[slot.target] ?? (() => 0),
      );
      slots[slot.target]?.push({ load, cpuMicros: (target.cpuMicros?.() ?? Number.NaN) - cpuBefore });
    }
    for (const [index, ran] of slots.entries()) {
      if (ran.length === 0) throw new Error(`round ${round}: target ${targets[index]?.label} never ran`);
      rounds[index]?.push(combineSlots(ran));
    }
  }
  return rounds.map((measured, index) => summarize(warmUps[index], measured));
};
