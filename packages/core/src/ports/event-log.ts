import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { ClientEvent, ClientEventType } from '../schemas/client-events.js';

/** An event with what the log needs to keep it: whose it is, and which client it is about. */
export type LoggedEvent = {
  readonly managerId: string;
  readonly clientId: string;
  readonly event: ClientEvent;
};

/** An event read back, with its position in the log (increasing in commit order per manager). */
export type PositionedEvent = { readonly position: number; readonly event: ClientEvent };

export type EventLogQuery = {
  readonly managerId: string;
  /** Only events after this position. */
  readonly afterPosition?: number;
  readonly limit: number;
  readonly type?: ClientEventType;
  readonly clientId?: string;
};

/**
 * The transactional outbox (issue 9): commands append their events in their own transaction, so a
 * rolled-back command leaves none and a committed one always has its own. A manager's events are
 * read oldest first; their positions increase in the order their transactions committed, so a
 * reader paging with `afterPosition` never skips an event that commits later.
 */
export interface EventLog {
  append(events: readonly LoggedEvent[]): ResultAsync<void, StorageUnavailable>;
  listForManager(query: EventLogQuery): ResultAsync<PositionedEvent[], StorageUnavailable>;
}
