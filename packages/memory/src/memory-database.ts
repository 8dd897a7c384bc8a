import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import { emptyTables, type MemoryTables } from './memory-tables.js';
import { createSerialQueue } from './serial-queue.js';

/** How a store reaches the tables: the committed ones outside a transaction, its snapshot inside one. */
export type TableAccess = {
  read<T>(query: (tables: Readonly<MemoryTables>) => T): ResultAsync<T, StorageUnavailable>;
  write<T, E>(command: (tables: MemoryTables) => Result<T, E>): ResultAsync<T, E | StorageUnavailable>;
};

/** One transaction's snapshot of the tables. */
export type TransactionSnapshot = {
  readonly access: TableAccess;
  /** Makes the snapshot, with the transaction's writes, the committed state. */
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

/** Runs `command` on a copy of `tables` and keeps what it wrote only when it is Ok: a write within a transaction is atomic too. */
const writeAtomically = <T, E>(tables: MemoryTables, command: (tables: MemoryTables) => Result<T, E>) => {
  const written = { ...tables };
  const outcome = command(written);
  if (outcome.isOk()) Object.assign(tables, written);
  return outcome;
};

/**
 * The transaction model of this test and demo adapter: plain, not fast.
 *
 * Every table is a persistent tree (memory-tables.ts): a write makes a new tree sharing all but
 * one path with the old one, so a snapshot of the whole state is a shallow copy of the tables
 * object. Writers run one at a time, in call order (a promise-chain queue): a transaction, or a
 * single write outside one, works on its own snapshot of the committed tables, which becomes the
 * committed state when it ends Ok and is dropped when it ends Err, throws or passes its deadline.
 * Readers outside a transaction read the committed tables and never wait; reads inside one see its
 * own writes.
 */
export const createMemoryDatabase = () => {
  let committed: MemoryTables = emptyTables();
  const queue = createSerialQueue();

  const committedAccess: TableAccess = {
    read: (query) => answer(attempt(() => query(committed))),
    write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
      ResultAsync.fromPromise(
        queue.run(async () => {
          const snapshot = { ...committed };
          const outcome = command(snapshot);
          if (outcome.isOk()) committed = snapshot;
          return outcome;
        }),
        memoryUnavailable,
      ).andThen((outcome): Result<T, E | StorageUnavailable> => outcome),
  };

  /** A snapshot of the committed tables for a transaction: take it under the lock (`serialized`). */
  const openTransaction = (): TransactionSnapshot => {
    const snapshot = { ...committed };
    let open = true;
    const ended = () => err(memoryUnavailable(new Error('The transaction has already ended')));
    return {
      access: {
        read: (query) => answer(open ? attempt(() => query(snapshot)) : ended()),
        write: <T, E>(command: (tables: MemoryTables) => Result<T, E>) =>
          answer<T, E | StorageUnavailable>(
            open ? attempt(() => writeAtomically(snapshot, command)).andThen((outcome) => outcome) : ended(),
          ),
      },
      commit: () => {
        committed = snapshot;
      },
      close: () => {
        open = false;
      },
    };
  };

  return {
    /** The committed tables now (synchronous reads of the testing helpers). */
    committed: (): Readonly<MemoryTables> => committed,
    committedAccess,
    openTransaction,
    /** Runs a task under the writers' lock, after every task queued before it. */
    serialized: <T>(task: () => Promise<T>): Promise<T> => queue.run(task),
  };
};

export type MemoryDatabase = ReturnType<typeof createMemoryDatabase>;
