import { setMaxListeners } from 'node:events';

/**
 * A running memory-mode job loop; `close` stops it, tells the rounds in progress (their signal:
 * what waits is handed back) and waits for them.
 */
export type DemoMemoryJobLoop = { close(): Promise<void> };

/**
 * Runs a round of the memory queues every `intervalMs` on real timers (the demo in memory mode;
 * a host's unit tests call the rounds themselves, with a controllable clock). A round still running
 * when the next tick comes does not hold the jobs due since: up to `maxRounds` run at once (each
 * takes the jobs due when it starts), so an event is never queued behind a round waiting on a slow
 * receiver.
 */
export const startDemoMemoryJobLoop = (
  round: (signal: AbortSignal) => Promise<unknown>,
  { intervalMs = 200, maxRounds = 8 }: { readonly intervalMs?: number; readonly maxRounds?: number } = {},
): DemoMemoryJobLoop => {
  const running = new Set<Promise<unknown>>();
  const stopped = new AbortController();
  // Each delivery waiting for a slot listens on the signal until it starts or gives up (and then
  // stops listening): as many as the rounds' waiting deliveries, not a leak; Node warns past 10.
  setMaxListeners(0, stopped.signal);
  const timer = setInterval(() => {
    if (running.size >= maxRounds) return;
    const started: Promise<unknown> = round(stopped.signal)
      .catch(() => undefined)
      .finally(() => running.delete(started));
    running.add(started);
  }, intervalMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      stopped.abort();
      await Promise.all([...running]);
    },
  };
};
