import pg from 'pg';
import { inject } from 'vitest';
import {
  createFreshDatabase,
  dropDatabase,
} from '../../../../packages/postgres/test-support/embedded-postgres-server.js';

export type DemoDatabase = {
  readonly url: string;
  /**
   * A pool on the database for the test's own statements, ended by `drop` if the test did not.
   * It listens for 'error': a connection the server ends (the drop, a server stopped) fails the
   * statement that used it, never the test run.
   */
  pool(max?: number): pg.Pool;
  /** Ends the pools of `pool()`, waits until their connections are closed, drops the database. */
  drop(): Promise<void>;
};

/**
 * node-postgres's `pool.end()` resolves once it has asked its connections to close, not once they
 * are: a drop right after (`WITH (FORCE)`) ended them with a 57P01, emitted on the pool.
 */
const endFully = async (pool: pg.Pool, connections: ReadonlySet<Promise<unknown>>) => {
  if (!pool.ending) await pool.end();
  await Promise.all(connections);
};

/**
 * An empty database of its own for one test, on the run's PostgreSQL server, so that tests running
 * in parallel never see each other's clients. Dropped by `drop()`.
 */
export const openDemoDatabase = async (): Promise<DemoDatabase> => {
  const serverUrl = inject('demoDatabaseUrl');
  const url = await createFreshDatabase(serverUrl);
  const pools = new Map<pg.Pool, Set<Promise<unknown>>>();
  return {
    url,
    pool: (max = 2) => {
      const pool = new pg.Pool({ connectionString: url, max });
      pool.on('error', () => undefined);
      const connections = new Set<Promise<unknown>>();
      pool.on('connect', (client) => {
        // Not `once(client, 'end')`: that rejects on the 'error' a terminated connection emits first.
        connections.add(new Promise((resolve) => client.once('end', resolve)));
      });
      pools.set(pool, connections);
      return pool;
    },
    drop: async () => {
      await Promise.all([...pools].map(([pool, connections]) => endFully(pool, connections)));
      await dropDatabase(serverUrl, url);
    },
  };
};
