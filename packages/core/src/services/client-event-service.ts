import type { ResultAsync } from 'neverthrow';
import { errAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { eventPositionCursor } from '../pagination/page-cursor.js';
import type { ManagerPrincipal } from '../principal.js';
import type { ClientEventListResponse } from '../schemas/client-events.js';
import { clientEventListQuerySchema } from '../schemas/client-events.js';
import { parseRequest } from '../validation/parse-request.js';

export interface ClientEventService {
  /**
   * The manager's events, oldest first, after the opaque cursor `after`; `query` is the raw query
   * (`after`, `limit` 1..100, `type`, `clientId`).
   */
  list(principal: ManagerPrincipal, query: unknown): ResultAsync<ClientEventListResponse, DomainError>;
}

/** A manager's events, oldest first: what a portal polls instead of listing clients. */
export const createClientEventService = ({ ports }: KitContext): ClientEventService => ({
  list: (principal, query) => {
    const parsed = parseRequest(clientEventListQuerySchema, query, 'The query parameters are invalid');
    if (parsed.isErr()) return errAsync(parsed.error);
    const { after, limit, type, clientId } = parsed.value;
    const decoded = eventPositionCursor.decode(after, 'after');
    if (decoded.isErr()) return errAsync(decoded.error);
    const afterPosition = decoded.value;
    return ports.events
      .listForManager({
        managerId: principal.managerId,
        limit,
        ...(afterPosition === undefined ? {} : { afterPosition }),
        ...(type === undefined ? {} : { type }),
        ...(clientId === undefined ? {} : { clientId }),
      })
      .map((page) => {
        const last = page.at(-1);
        return {
          data: page.map(({ event }) => event),
          // At the end, the same cursor again: a poller keeps asking from where it is.
          nextCursor: last !== undefined ? eventPositionCursor.encode(last.position) : (after ?? null),
        };
      });
  },
});
