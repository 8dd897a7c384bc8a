/**
 * Managers seen with at least one webhook endpoint, remembered for a short while so that their
 * commands send their job without asking the database first. Only "has an endpoint" is
 * remembered, never "has none": a stale entry (the last endpoint deleted meanwhile, by this process
 * or another) costs one job that finds no endpoint and does nothing, while a stale "none" would
 * lose events. Bounded: past `maxEntries` the oldest entry is dropped.
 */
export type SubscribedManagers = {
  has(managerId: string, nowMs: number): boolean;
  remember(managerId: string, nowMs: number): void;
};

export const createSubscribedManagers = ({
  ttlMs = 60_000,
  maxEntries = 10_000,
}: {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
} = {}): SubscribedManagers => {
  // Insertion order is expiry order (every entry lives ttlMs): the first key is the oldest.
  const expiries = new Map<string, number>();
  return {
    has: (managerId, nowMs) => {
      const expiry = expiries.get(managerId);
      if (expiry === undefined) return false;
      if (expiry > nowMs) return true;
      expiries.delete(managerId);
      return false;
    },
    remember: (managerId, nowMs) => {
      expiries.delete(managerId);
      expiries.set(managerId, nowMs + ttlMs);
      if (expiries.size > maxEntries) {
        const oldest = expiries.keys().next();
        if (!oldest.done) expiries.delete(oldest.value);
      }
    },
  };
};
