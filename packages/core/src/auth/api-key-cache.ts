import type { Principal } from '../principal.js';

/**
 * The principals of recently used API keys, by digest, for `ttlMs` after each was read from the
 * ApiKeyStore: a request then costs no store lookup (on PostgreSQL, a round trip). The trade-off:
 * a key revoked behind this process's back (another process, or a row deleted by hand) keeps
 * working here for up to `ttlMs`; a key revoked or re-pointed through this kit is dropped at once.
 * Only hits are kept (an unknown key is asked of the store every time, so a key registered
 * elsewhere works at once, and guessing keys cannot fill the cache), at most `maxEntries`, the
 * oldest entry evicted first. Raw keys are never kept, only their digests.
 */
export type ApiKeyCache = {
  /** The principal cached for `digest`, if it was read less than `ttlMs` ago. */
  get(digest: string, nowMs: number): Principal | undefined;
  /** Where a lookup starts: its answer is kept only if no key was dropped meanwhile. */
  readonly generation: () => number;
  /** Keeps what the store answered for a lookup that started at `generation`. */
  set(digest: string, principal: Principal, nowMs: number, generation: number): void;
  /** Drops a key (revoked or re-pointed), and any answer of a lookup still in flight. */
  drop(digest: string): void;
  readonly size: () => number;
};

export type ApiKeyCacheOptions = { readonly ttlMs: number; readonly maxEntries: number };

export const createApiKeyCache = ({ ttlMs, maxEntries }: ApiKeyCacheOptions): ApiKeyCache => {
  const entries = new Map<string, { readonly principal: Principal; readonly expiresAt: number }>();
  // Bumped by every drop: a lookup that started before it may have read the dropped key.
  let generation = 0;
  const enabled = ttlMs > 0 && maxEntries > 0;
  return {
    get: (digest, nowMs) => {
      const entry = entries.get(digest);
      if (entry === undefined) return undefined;
      if (entry.expiresAt > nowMs) return entry.principal;
      entries.delete(digest);
      return undefined;
    },
    generation: () => generation,
    set: (digest, principal, nowMs, startedAt) => {
      if (!enabled || startedAt !== generation) return;
      entries.delete(digest);
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: the first key is the oldest entry.
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      // Shared by every request of that key: no caller may change it.
      entries.set(digest, { principal: Object.freeze({ ...principal }), expiresAt: nowMs + ttlMs });
    },
    drop: (digest) => {
      generation += 1;
      entries.delete(digest);
    },
    size: () => entries.size,
  };
};
