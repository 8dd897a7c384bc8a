/**
 * The attempts one process has in flight, shared by every webhook job it runs: at most
 * `perEndpoint` to one endpoint and `total` in all. A slot freed goes to the endpoints waiting in
 * turn (round robin), so one endpoint's backlog cannot take every free slot.
 *
 * An endpoint whose last attempt was slow (as `run`'s caller judges: it took long or timed out) is not
 * waited for: an attempt that finds it at its limit is handed back at once (`busy`) and the job
 * that wanted it ends, to attempt it again later. So a receiver that hangs holds two slots and no
 * job, and the others' events are not queued behind it. A fast endpoint at its limit is waited
 * for, but not for longer than `maxWaitMs`, nor once the caller's signal is aborted (its runner
 * stops; then nothing new starts at all): then it too is handed back. So a job holds its runner's place for at most `maxWaitMs` plus
 * one attempt, however many attempts wait for the endpoint (a job held past its expiry is handed to
 * another runner, and a runner that stops waits for the jobs it holds).
 */
export type WebhookAttemptSlots = {
  /** Whether an attempt to the endpoint now would be handed back (slow, and at its limit). */
  isBusy(endpointId: string): boolean;
  /**
   * Runs `attempt` when a slot is free, and tells how long it took; `busy` when the endpoint is
   * slow and already at its limit, or no slot came free within `maxWaitMs` or before `signal` was
   * aborted (nothing ran).
   */
  run<T>(
    endpointId: string,
    attempt: () => Promise<T>,
    wasSlow: (outcome: T, elapsedMs: number) => boolean,
    waitFor?: { readonly signal?: AbortSignal },
  ): Promise<{ readonly type: 'ran'; readonly outcome: T } | { readonly type: 'busy' }>;
};

type Waiter = { readonly start: () => void; readonly refuse: () => void };
type EndpointSlots = { inFlight: number; waiting: Waiter[]; slowUntil: number };

/** How long an endpoint found slow is treated as slow without a faster answer. */
const SLOW_MEMORY_MS = 60_000;
/** Idle endpoints remembered (their slowness) before the oldest are forgotten. */
const MAX_REMEMBERED_ENDPOINTS = 10_000;

export const createWebhookAttemptSlots = ({
  total,
  perEndpoint,
  maxWaitMs,
  now,
}: {
  readonly total: number;
  readonly perEndpoint: number;
  /** How long an attempt waits for a slot before it is handed back (real time: a timer). */
  readonly maxWaitMs: number;
  /** Milliseconds on the kit's clock. */
  readonly now: () => number;
}): WebhookAttemptSlots => {
  const endpoints = new Map<string, EndpointSlots>();
  let inFlight = 0;

  const slotsOf = (endpointId: string): EndpointSlots => {
    let slots = endpoints.get(endpointId);
    if (slots === undefined) {
      slots = { inFlight: 0, waiting: [], slowUntil: 0 };
      endpoints.set(endpointId, slots);
    }
    return slots;
  };
  const isSlow = (slots: EndpointSlots) => slots.slowUntil > now();
  const forgetIdle = () => {
    if (endpoints.size <= MAX_REMEMBERED_ENDPOINTS) return;
    for (const [id, slots] of endpoints) {
      if (slots.inFlight === 0 && slots.waiting.length === 0) endpoints.delete(id);
      if (endpoints.size <= MAX_REMEMBERED_ENDPOINTS / 2) return;
    }
  };

  /** Gives free slots to waiting endpoints, one per endpoint per turn, in the order they are kept. */
  const grant = () => {
    let granted = true;
    while (granted && inFlight < total) {
      granted = false;
      for (const slots of endpoints.values()) {
        if (inFlight >= total) return;
        if (slots.waiting.length === 0 || slots.inFlight >= perEndpoint) continue;
        const waiter = slots.waiting.shift() as Waiter;
        slots.inFlight += 1;
        inFlight += 1;
        granted = true;
        waiter.start();
      }
    }
  };

  const forgetIfIdle = (endpointId: string, slots: EndpointSlots) => {
    const idle = slots.inFlight === 0 && slots.waiting.length === 0 && !isSlow(slots);
    if (idle && endpoints.get(endpointId) === slots) endpoints.delete(endpointId);
  };

  const release = (endpointId: string, slots: EndpointSlots, slow: boolean) => {
    slots.inFlight -= 1;
    inFlight -= 1;
    slots.slowUntil = slow ? now() + SLOW_MEMORY_MS : 0;
    grant();
    // Found slow: what waits beyond the slots it was just given is handed back.
    if (slow) for (const waiter of slots.waiting.splice(0)) waiter.refuse();
    forgetIfIdle(endpointId, slots);
    forgetIdle();
  };

  return {
    isBusy: (endpointId) => {
      const slots = endpoints.get(endpointId);
      return slots !== undefined && slots.inFlight >= perEndpoint && isSlow(slots);
    },
    run: async (endpointId, attempt, wasSlow, waitFor = {}) => {
      const { signal } = waitFor;
      // Its runner stops: nothing new is started, it is all handed back.
      if (signal?.aborted === true) return { type: 'busy' };
      const slots = slotsOf(endpointId);
      const free = slots.inFlight < perEndpoint && slots.waiting.length === 0 && inFlight < total;
      if (!free) {
        if (slots.inFlight >= perEndpoint && isSlow(slots)) {
          forgetIfIdle(endpointId, slots);
          return { type: 'busy' };
        }
        const started = await new Promise<boolean>((resolve) => {
          const settle = (outcome: boolean) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', giveUp);
            resolve(outcome);
          };
          const waiter: Waiter = { start: () => settle(true), refuse: () => settle(false) };
          const giveUp = () => {
            const at = slots.waiting.indexOf(waiter);
            if (at === -1) return;
            slots.waiting.splice(at, 1);
            settle(false);
          };
          const timer = setTimeout(giveUp, maxWaitMs);
          signal?.addEventListener('abort', giveUp, { once: true });
          slots.waiting.push(waiter);
        });
        if (!started) {
          forgetIfIdle(endpointId, slots);
          return { type: 'busy' };
        }
      } else {
        slots.inFlight += 1;
        inFlight += 1;
      }
      const startedAt = now();
      let slow = false;
      try {
        const outcome = await attempt();
        slow = wasSlow(outcome, now() - startedAt);
        return { type: 'ran', outcome };
      } finally {
        release(endpointId, slots, slow);
      }
    },
  };
};
