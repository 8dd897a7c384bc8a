import type { EventLog } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

/**
 * The outbox in memory: events are staged with their transaction and numbered as they are
 * appended; transactions run one at a time, so positions follow commit order.
 */
export const createMemoryEventLog = (access: TableAccess): EventLog => ({
  append: (events) =>
    access.write((tables) => {
      let position = tables.events.size();
      for (const logged of events) {
        position += 1;
        tables.events.set(position, { ...logged, position });
      }
      return ok(undefined);
    }),
  listForManager: ({ managerId, afterPosition = '0', limit, type, clientId }) =>
    access.read((tables) =>
      tables.events
        .selectWithin(
          'byManager',
          managerId,
          (row) =>
            row.managerId === managerId &&
            row.position > Number(afterPosition) &&
            (type === undefined || row.event.type === type) &&
            (clientId === undefined || row.clientId === clientId),
        )
        .sort((a, b) => a.position - b.position)
        .slice(0, Math.max(1, Math.floor(limit)))
        .map(({ position, event }) => ({ position: String(position), event })),
    ),
  findByIds: (eventIds) =>
    access.read((tables) =>
      [...new Set(eventIds)]
        .flatMap((eventId) =>
          tables.events.selectWithin('byEventId', eventId, (row) => row.event.id === eventId),
        )
        .sort((a, b) => a.position - b.position)
        .map(({ managerId, clientId, event }) => ({ managerId, clientId, event })),
    ),
});
