import { createHash } from 'node:crypto';
import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import type { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { KitTables } from './kit-tables.js';

export type Queryable = {
  query<R extends QueryResultRow = QueryResultRow>(
    statement: string | QueryConfig<unknown[]>,
    values?: unknown[],
  ): Promise<QueryResult<R>>;
};

/**
 * A store's statements built once per schema (per KitTables object) rather than every time the
 * store is created: the unit of work creates its stores for each transaction, and building the
 * texts and their names took about 40 µs a transaction.
 */
export const statementsPerSchema = <S>(build: (tables: KitTables) => S): ((tables: KitTables) => S) => {
  const built = new WeakMap<KitTables, S>();
  return (tables) => {
    let statements = built.get(tables);
    if (statements === undefined) {
      statements = build(tables);
      built.set(tables, statements);
    }
    return statements;
  };
};

/**
 * Where a repository runs its SQL: the pool (each statement autocommits) or the unit of work's
 * transaction. `atomically` runs several statements all-or-nothing: in its own transaction on the
 * pool, or simply inline when a transaction is already open.
 */
export type SqlSession = Queryable & {
  atomically<T>(statements: (db: Queryable) => Promise<T>): Promise<T>;
};

/** A pooled client held for several statements, and how to give it back. */
export type CheckedOutClient = {
  readonly client: PoolClient;
  /**
   * Back to the pool when healthy; destroyed when `failure` is given or the connection reported
   * an error meanwhile, so the pool opens a fresh connection instead of handing out a dead one.
   */
  release(failure?: unknown): void;
};

export const checkOut = (pool: Pool): Promise<CheckedOutClient> =>
  new Promise((resolve, reject) => {
    let connectionError: unknown;
    // node-postgres removes the pool's listener while a client is checked out: a connection lost
    // between two statements (a database restart) would otherwise be an unhandled 'error' event.
    const onError = (error: unknown) => {
      connectionError = error;
    };
    // Listened for in the callback, which the pool calls as it hands the client out: a promise's
    // continuation comes only after the driver has read the whole packet, and a server shutting
    // down can cut a connection in the very packet that opens it.
    pool.connect((failure, client) => {
      if (failure !== undefined || client === undefined) return reject(failure);
      client.on('error', onError);
      resolve({
        client,
        release: (failure) => {
          client.off('error', onError);
          const reason = failure ?? connectionError;
          client.release(reason === undefined ? undefined : reason instanceof Error ? reason : true);
        },
      });
    });
  });

/** Rolls back and hands the client back; a rollback that fails means the connection is gone. */
export const rollbackAndRelease = async ({ client, release }: CheckedOutClient): Promise<void> => {
  try {
    await client.query('ROLLBACK');
    release();
  } catch (failure) {
    release(failure);
  }
};

export const poolSession = (pool: Pool): SqlSession => ({
  query: (statement, values) =>
    typeof statement === 'string' ? pool.query(statement, values) : pool.query(statement),
  atomically: async (statements) => {
    const held = await checkOut(pool);
    try {
      await held.client.query('BEGIN');
    } catch (failure) {
      held.release(failure);
      throw failure;
    }
    try {
      const outcome = await statements(held.client);
      await held.client.query('COMMIT');
      held.release();
      return outcome;
    } catch (failure) {
      await rollbackAndRelease(held);
      throw failure;
    }
  },
});

/** One statement on `db` as a Result: a driver failure is `StorageUnavailable` of postgres. */
export const resultQuery =
  (db: Queryable) =>
  <R extends QueryResultRow = QueryResultRow>(
    text: string,
    values: unknown[],
  ): ResultAsync<QueryResult<R>, StorageUnavailable> =>
    ResultAsync.fromPromise(db.query<R>(text, values), storageUnavailable('postgres'));

/**
 * A statement sent often (a create, a claim): named, so that each connection parses and plans its
 * text once and later sends only the values. The name derives from the text, so two schemas (two
 * texts) never share one.
 */
export const preparedStatement = (text: string): ((values: unknown[]) => QueryConfig<unknown[]>) => {
  const name = `okit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return (values) => ({ name, text, values });
};
