import type { ResultAsync } from 'neverthrow';
import type { StoredClient } from '../domain/client.js';
import type { ReviewQueueStatus } from '../domain/review-queue.js';
import type { StorageUnavailable } from '../errors.js';
import type {
  ClientStatus,
  ClientType,
  ReviewAssignment,
  Screening,
  StatusHistoryEntry,
} from '../schemas/client-response.js';
import type { ReviewQueueScreening } from '../schemas/review-queue.js';

/**
 * Position after which a page of clients starts: newest first, ties by id descending. Decoded by
 * core's cursor codec (`Date#toISOString` instant in years 1..9999, lowercase UUID).
 */
export type ClientListCursor = { readonly createdAt: string; readonly id: string };

export type ClientListQuery = {
  readonly managerId: string;
  readonly status?: ClientStatus;
  readonly clientType?: ClientType;
  /** How many clients to return at most. */
  readonly limit: number;
  readonly after?: ClientListCursor;
};

/** Which waiting clients a review queue shows (every filter optional). */
export type ReviewQueueFilter = {
  readonly clientType?: ClientType;
  /** The screening's status, or `NONE` for clients the kit did not screen. */
  readonly screening?: ReviewQueueScreening;
  /** A compliance id: that reviewer's clients only; null: unassigned clients only. */
  readonly assigneeId?: string | null;
};

/**
 * A waiting client's place in the queue of its status: its turn, then `createdAt`, then id. A
 * client takes its turn when it comes to wait in the status (`insert`, or an `update` that moves it
 * there) and keeps it while it waits there: the turn of the queue's head (the lowest turn waiting
 * in the status, 0 when none waits), or one past the last turn its own manager holds there, which
 * ever is later. So the queue serves each manager's first waiting client, then each one's second
 * ..., and a place never moves while its client waits, whoever else comes or goes.
 */
export type ReviewQueuePosition = {
  readonly turn: number;
  readonly createdAt: string;
  readonly id: string;
};

/** One page of the clients in one waiting status, in queue order (`ReviewQueuePosition`). */
export type ReviewQueueQuery = ReviewQueueFilter & {
  readonly status: ReviewQueueStatus;
  readonly limit: number;
  /** The page starts after this place, in `status`. */
  readonly after?: ReviewQueuePosition;
};

/** A waiting client and its turn in the queue of its status. */
export type ReviewQueueRow = { readonly client: StoredClient; readonly turn: number };

/** The stored client no longer has the status the command read: another writer got there first. */
export type StaleClientState = {
  readonly type: 'StaleClientState';
  readonly clientId: string;
  readonly expectedStatus: ClientStatus;
};

/**
 * Clients and their status history. A create or an update writes the client and one history
 * entry together. Methods never throw: every failure of the backend is `StorageUnavailable`.
 */
export interface ClientRepository {
  /** Any manager's client by id (ownership is checked by the services), or null. */
  findById(clientId: string): ResultAsync<StoredClient | null, StorageUnavailable>;
  /**
   * Like findById, and inside a transaction also locks the client until the transaction ends,
   * so that two commands on one client run one after the other.
   */
  findForUpdate(clientId: string): ResultAsync<StoredClient | null, StorageUnavailable>;
  /** A manager's clients, newest `createdAt` first, ties by id descending. */
  list(query: ClientListQuery): ResultAsync<StoredClient[], StorageUnavailable>;
  /** The client's history, oldest first (empty when the client does not exist). */
  statusHistory(clientId: string): ResultAsync<StatusHistoryEntry[], StorageUnavailable>;
  /** A client in a waiting status takes its turn in that status's queue (`ReviewQueuePosition`). */
  insert(client: StoredClient, entry: StatusHistoryEntry): ResultAsync<void, StorageUnavailable>;
  /**
   * Replaces the client (all of its onboarding information, bank accounts and wallets) if it still
   * has `expectedStatus`, and appends `entry`; otherwise `StaleClientState` and nothing changes.
   * A move into a waiting status from another takes a turn there (`ReviewQueuePosition`).
   */
  update(
    client: StoredClient,
    expectedStatus: ClientStatus,
    entry: StatusHistoryEntry,
  ): ResultAsync<void, StorageUnavailable | StaleClientState>;
  /**
   * Up to `limit` clients `DELETED` before `before` (an ISO instant) and not redacted yet, oldest
   * deletion first: what the retention job redacts (decisions §11).
   */
  listDeletedBefore(before: string, limit: number): ResultAsync<StoredClient[], StorageUnavailable>;
  /**
   * Up to `limit` clients of any manager whose screening is done (`CLEAR` or `POSSIBLE_MATCH`), by
   * id, after the client `after` (from the first when null): what a rebuild of the index of
   * screened names walks (`kit.screening.reindexScreenedNames`).
   */
  listScreened(after: string | null, limit: number): ResultAsync<StoredClient[], StorageUnavailable>;
  /**
   * Writes the redacted client (its onboarding information gone, `redactedAt` set: no child rows
   * are kept) and replaces every non-null reason of its status history by `REDACTED_VALUE`.
   * Idempotent; nothing but redaction calls it.
   */
  redact(client: StoredClient): ResultAsync<void, StorageUnavailable>;
  /** One page of the review queue in one status (`ReviewQueueQuery`). */
  reviewQueue(query: ReviewQueueQuery): ResultAsync<ReviewQueueRow[], StorageUnavailable>;
  /** How many clients each waiting status holds under `filter`. */
  countReviewQueue(
    filter: ReviewQueueFilter,
  ): ResultAsync<Record<ReviewQueueStatus, number>, StorageUnavailable>;
  /**
   * Inside a transaction: the first unassigned client in `status` (queue order) under `filter` that no other
   * transaction holds, locked until this one ends (the next one skips it), or null. Two
   * transactions at once never get the same client.
   */
  lockNextUnassigned(
    status: ReviewQueueStatus,
    filter: Omit<ReviewQueueFilter, 'assigneeId'>,
  ): ResultAsync<StoredClient | null, StorageUnavailable>;
  /**
   * Replaces the client's assignment and its `updatedAt` (the answer shows the assignee: core
   * dates the change) only: no status change, no history entry; false when there is no such
   * client. `update` and `insert` never change an assignment.
   */
  updateAssignment(
    clientId: string,
    assignee: ReviewAssignment | null,
    updatedAt: string,
  ): ResultAsync<boolean, StorageUnavailable>;
  /**
   * Replaces the client's screening and its `updatedAt` (core passes the one it keeps when the
   * answer does not change) only: no status change, no history entry; false when there is no such
   * client.
   */
  updateScreening(
    clientId: string,
    screening: Screening | null,
    updatedAt: string,
  ): ResultAsync<boolean, StorageUnavailable>;
}
