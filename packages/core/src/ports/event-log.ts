import type { ResultAsync } from 'neverthrow';
import type { LoggedEvent } from '../domain/client-events.js';
import type { StorageUnavailable } from '../errors.js';
import type { ClientEvent, ClientEventType } from '../schemas/client-events.js';

export type { LoggedEvent } from '../domain/client-events.js';

/**
 * An event read back, with its place in the log: digits, or digits `.` digits (the adapter's own
 * order key), increasing in the order the log is read.
 */
export type PositionedEvent = { readonly position: string; readonly event: ClientEvent };

export type EventLogQuery = {
  readonly managerId: string;
  /** Only events after this position (one the log returned; each part a bigint, checked by core). */
  readonly afterPosition?: string;
  readonly limit: number;
  readonly type?: ClientEventType;
  readonly clientId?: string;
};

/**
 * The transactional outbox: commands append their events in their own transaction, so a
 * rolled-back command leaves none and a committed one always has its own. A manager's events are
 * read oldest first, and a reader paging with `afterPosition` never skips an event whose
 * transaction commits later (the log holds back what follows a transaction still running).
 */
export interface EventLog {
  append(events: readonly LoggedEvent[]): ResultAsync<void, StorageUnavailable>;
  listForManager(query: EventLogQuery): ResultAsync<PositionedEvent[], StorageUnavailable>;
  /** The events with these ids (committed ones; unknown ids are left out), in no particular order. */
  findByIds(eventIds: readonly string[]): ResultAsync<LoggedEvent[], StorageUnavailable>;
  /**
   * Replaces each event of the client by `rewrite(event)` (same id, type, position and time):
   * the redaction of the client's personal data (decisions §11); nothing else calls it. Called
   * after `ClientRepository.redact` marked the client redacted: an adapter may refuse a rewrite of
   * any other client's events (PostgreSQL's trigger does, migration 0026).
   */
  rewriteForClient(
    clientId: string,
    rewrite: (event: ClientEvent) => ClientEvent,
  ): ResultAsync<void, StorageUnavailable>;
}
