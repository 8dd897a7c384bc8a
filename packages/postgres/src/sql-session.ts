import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';

export type Queryable = {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
};

/**
 * Where a repository runs its SQL: the pool (each statement autocommits) or one pooled client
 * inside the unit of work's transaction. `atomically` runs several statements all-or-nothing:
 * in its own transaction on the pool, or simply inline when a transaction is already open.
 */
export type SqlSession = Queryable & {
  atomically<T>(statements: (db: Queryable) => Promise<T>): Promise<T>;
};

/**
 * Ends the use of a pooled client: back to the pool when it is healthy, destroyed when the
 * connection may be broken (so the pool opens a fresh one instead of handing out a dead one).
 */
export const releaseClient = (client: PoolClient, failure?: unknown): void => {
  client.release(failure === undefined ? undefined : failure instanceof Error ? failure : true);
};

/** Rolls back and hands the client back; a rollback that fails means the connection is gone. */
export const rollbackAndRelease = async (client: PoolClient): Promise<void> => {
  try {
    await client.query('ROLLBACK');
    releaseClient(client);
  } catch (failure) {
    releaseClient(client, failure);
  }
};

export const poolSession = (pool: Pool): SqlSession => ({
  query: (text, values) => pool.query(text, values),
  atomically: async (statements) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
    } catch (failure) {
      releaseClient(client, failure);
      throw failure;
    }
    try {
      const outcome = await statements(client);
      await client.query('COMMIT');
      releaseClient(client);
      return outcome;
    } catch (failure) {
      await rollbackAndRelease(client);
      throw failure;
    }
  },
});

export const transactionSession = (client: PoolClient): SqlSession => ({
  query: (text, values) => client.query(text, values),
  atomically: (statements) => statements(client),
});
