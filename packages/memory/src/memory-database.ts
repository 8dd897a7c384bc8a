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
  /** Writes the transaction's changes into the committed state. */
  commit(): void;
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

/** Runs `command` on changes over `tables` and keeps them only when it is Ok: a write within a transaction is atomic too. */
const writeAtomically = <T, E>(tables: MemoryTables, command: (tables: MemoryTables) => Result<T, E>) => {
  const written = changesOver(tables);
  const outcome = command(written);
  if (outcome.isOk()) applyChanges(written, tables);
  return outcome;
};

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
    let open = true;
    const ended = () => err(memoryUnavailable(new Error('The transaction has already ended')));
    return {
      access: {
        read: (query) => answer(open ? attempt(() => query(view)) : ended()),
        write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
          answer<T, E | StorageUnavailable>(
            open ? attempt(() => writeAtomically(view, command)).andThen((outcome) => outcome) : ended(),
          ),
      },
      commit: () => applyChanges(view, committed),
      close: () => {
        open = false;
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
