import { createServer, type Server } from 'node:http';

/**
 * How long the demo's HTTP server waits for what a caller owes it, and how many connections it
 * holds. The kit cannot set these (the host owns its server); docs/host-integration.md says what a
 * host should set and why.
 */
export type DemoServerLimits = {
  /** A request head must arrive whole within this (a connection that sends nothing is closed after it too). */
  readonly headersTimeoutMs: number;
  /**
   * A request must arrive whole within this. Above the upload link's own deadline (2 minutes: 25 MiB
   * at 2 Mbit/s), so a slow upload of the largest document still fits and its 408 is the kit's.
   */
  readonly requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /**
   * Connections held at once; further ones are closed as they arrive. Below the process's file
   * descriptor limit (often 1,024), leaving room for the database pool and files.
   */
  readonly maxConnections: number;
};

export const defaultDemoServerLimits: DemoServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 150_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
};

/** An HTTP server enforcing these limits (defaults for any left out). */
export const createLimitedServer = (limits: Partial<DemoServerLimits> = {}): Server => {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = {
    ...defaultDemoServerLimits,
    ...limits,
  };
  const server = createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Node checks the two timeouts above on this interval (default 30 s): a fraction of the
    // shortest, so a connection is closed close to its deadline.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
  });
  server.maxConnections = maxConnections;
  return server;
};
