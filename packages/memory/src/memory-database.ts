import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core/adapter';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import {
  applyChanges,
  changesOver,
  emptyTables,
  type MemoryTables,
  type ReadableTables,
} from './memory-tables.js';
import { createSerialQueue } from './serial-queue.js';

/** How a store reaches the tables: the committed ones outside a transaction, its view inside one. */
export type TableAccess = {
  read<T>(query: (tables: ReadableTables) => T): ResultAsync<T, StorageUnavailable>;
  write<T, E>(command: (tables: MemoryTables) => Result<T, E>): ResultAsync<T, E | StorageUnavailable>;
};

/** One transaction's view of the tables. */
export type TransactionView = {
  readonly access: TableAccess;
  /**
   * Writes the transaction's changes into the committed state; refused when one of its writes
   * failed (nothing is written then).
   */
  commit(): Result<void, StorageUnavailable>;
  /** Refuses later reads and writes: work still running after its transaction ended must not land anywhere. */
  close(): void;
};

const memoryUnavailable = storageUnavailable('memory');

/** Runs a synchronous table operation, turning an unexpected throw into `StorageUnavailable`. */
const attempt = <T>(operation: () => T): Result<T, StorageUnavailable> => {
  try {
    return ok(operation());
  } catch (cause) {
    return err(memoryUnavailable(cause));
  }
};

const answer = <T, E>(outcome: Result<T, E>): ResultAsync<T, E> => new ResultAsync(Promise.resolve(outcome));

/**
 * The transaction model of this test and demo adapter: plain, not fast.
 *
 * Writers run one at a time, in call order (a promise-chain queue). A transaction, or a single
 * write outside one, works on its own view of the committed state (memory-tables.ts): the rows it
 * changes are kept beside the committed Maps, and the ordered tables are persistent trees, so its
 * versions of them share all but the paths it wrote with the committed ones. When it ends Ok, its
 * changed rows are written into the Maps and its trees become the committed ones; when it ends
 * Err, throws or passes its deadline, the view is dropped. Readers outside a transaction read the
 * committed state and never wait; reads inside one see its own writes.
 *
 * As in PostgreSQL, a write that fails inside a transaction (an Err, or a throw) aborts it: it may
 * have changed some rows before it failed, so every later read and write of the transaction is
 * refused and it cannot commit, even if its work goes on to end Ok.
 */
export const createMemoryDatabase = () => {
  const committed = emptyTables();
  const queue = createSerialQueue();

  const committedAccess: TableAccess = {
    read: (query) => answer(attempt(() => query(committed))),
    write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
      ResultAsync.fromPromise(
        queue.run(async () => {
          const changes = changesOver(committed);
          const outcome = command(changes);
          if (outcome.isOk()) applyChanges(changes, committed);
          return outcome;
        }),
        memoryUnavailable,
      ).andThen((outcome): Result<T, E | StorageUnavailable> => outcome),
  };

  /** A transaction's view of the committed state: open it under the lock (`serialized`). */
  const openTransaction = (): TransactionView => {
    const view = changesOver(committed);
    let state: 'open' | 'aborted' | 'ended' = 'open';
    const refused = () =>
      err(
        memoryUnavailable(
          new Error(
            state === 'aborted'
              ? 'The transaction was aborted by a failed write'
              : 'The transaction has already ended',
          ),
        ),
      );
    return {
      access: {
        read: (query) => answer(state === 'open' ? attempt(() => query(view)) : refused()),
        write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) => {
          if (state !== 'open') return answer<T, E | StorageUnavailable>(refused());
          const outcome = attempt(() => command(view)).andThen(
            (written): Result<T, E | StorageUnavailable> => written,
          );
          if (outcome.isErr()) state = 'aborted';
          return answer(outcome);
        },
      },
      commit: () => {
        if (state !== 'open') return refused();
        applyChanges(view, committed);
        return ok(undefined);
      },
      close: () => {
        state = 'ended';
      },
    };
  };

  return {
    /** The committed tables now (synchronous reads of the testing helpers). */
    committed: (): ReadableTables => committed,
    committedAccess,
    openTransaction,
    /** Runs a task under the writers' lock, after every task queued before it. */
    serialized: <T>(task: () => Promise<T>): Promise<T> => queue.run(task),
  };
};

export type MemoryDatabase = ReturnType<typeof createMemoryDatabase>;
