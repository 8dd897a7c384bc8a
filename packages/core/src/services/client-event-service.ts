import { base64urlnopad } from '@scure/base';
import { errAsync } from 'neverthrow';
import { validationFailed } from '../errors.js';
import type { ClientEventService } from '../onboarding-kit.js';
import { clientEventListQuerySchema } from '../schemas/client-events.js';
import { parseRequest } from '../validation/parse-request.js';
import type { KitContext } from './kit-context.js';

const INVALID_CURSOR = 'Invalid cursor: pass the nextCursor of a previous page';

/** The opaque `after` of `GET /events`: base64url of the last event's position in the log. */
const encodeEventCursor = (position: string): string =>
  base64urlnopad.encode(new TextEncoder().encode(`e${position}`));

/** The position a cursor names, or null: only digits, or digits `.` digits, as the log writes them. */
const decodeEventCursor = (cursor: string): string | null => {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(cursor));
    return /^e(0|[1-9][0-9]{0,18})(\.(0|[1-9][0-9]{0,18}))?$/.test(text) ? text.slice(1) : null;
  } catch {
    return null;
  }
};

/** A manager's events, oldest first (issue 9): what a portal polls instead of listing clients. */
export const createClientEventService = ({ ports }: KitContext): ClientEventService => ({
  list: (principal, query) => {
    const parsed = parseRequest(clientEventListQuerySchema, query, 'The query parameters are invalid');
    if (parsed.isErr()) return errAsync(parsed.error);
    const { after, limit, type, clientId } = parsed.value;
    const afterPosition = after === undefined ? undefined : decodeEventCursor(after);
    if (afterPosition === null) {
      return errAsync(validationFailed('The query parameters are invalid', { after: [INVALID_CURSOR] }));
    }
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
          nextCursor: last !== undefined ? encodeEventCursor(last.position) : (after ?? null),
        };
      });
  },
});
