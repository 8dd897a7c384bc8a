import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { Queryable } from './sql-session.js';

/** A way into the database that knows which of its statements are still on their way. */
export type StatementsInFlight = {
  readonly db: Queryable;
  /** Resolves once no statement sent through `db` is on its way (those sent meanwhile included). */
  settled(): Promise<void>;
};

/**
 * Tracks the statements sent through `db`, so that the one who sent them can end them all before
 * the pool ends: a statement still on its way then would fail on the ended pool, in a promise of a
 * library that may not handle it.
 */
export const statementsInFlight = (db: Queryable): StatementsInFlight => {
  const inFlight = new Set<Promise<unknown>>();
  return {
    db: {
      query: <R extends QueryResultRow = QueryResultRow>(
        statement: string | QueryConfig<unknown[]>,
        values?: unknown[],
      ): Promise<QueryResult<R>> => {
        const sent = db.query<R>(statement, values);
        inFlight.add(sent);
        const forget = () => {
          inFlight.delete(sent);
        };
        sent.then(forget, forget);
        return sent;
      },
    },
    settled: async () => {
      while (inFlight.size > 0) {
        await Promise.allSettled([...inFlight]);
        // A turn of the event loop, for a statement sent in reply to the last one to be counted.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
};
