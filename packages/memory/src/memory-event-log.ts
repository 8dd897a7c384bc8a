import type { EventLog, PositionedEvent } from '@onboarding-kit/core';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending, put } from './memory-tables.js';

/**
 * The outbox in memory: events are written with their transaction and numbered as they are
 * appended; writers run one at a time, so positions follow commit order.
 */
export const createMemoryEventLog = (access: TableAccess): EventLog => ({
  append: (events) =>
    access.write((tables) => {
      for (const logged of events) {
        // Events are never removed: the next position is one past the count.
        const position = tables.events.length + 1;
        const row = frozenClone({ ...logged, position });
        tables.events = tables.events.insert(position, row);
        tables.eventsByManager = tables.eventsByManager.insert([row.managerId, position], position);
        tables.eventPositions = put(tables.eventPositions, row.event.id, position);
      }
      return ok(undefined);
    }),
  listForManager: ({ managerId, afterPosition = '0', limit, type, clientId }) =>
    access.read((tables) => {
      const page: PositionedEvent[] = [];
      const size = Math.max(1, Math.floor(limit));
      const after = Number(afterPosition);
      for (const [, position] of ascending(tables.eventsByManager, managerId, [managerId, after])) {
        if (page.length >= size) break;
        const row = tables.events.get(position);
        if (
          row === undefined ||
          row.position <= after ||
          (type !== undefined && row.event.type !== type) ||
          (clientId !== undefined && row.clientId !== clientId)
        ) {
          continue;
        }
        page.push({ position: String(position), event: row.event });
      }
      return page;
    }),
  findByIds: (eventIds) =>
    access.read((tables) =>
      [...new Set(eventIds)]
        .flatMap((eventId) => {
          const position = tables.eventPositions.get(eventId);
          const row = position === undefined ? undefined : tables.events.get(position);
          return row === undefined ? [] : [row];
        })
        .sort((a, b) => a.position - b.position)
        .map(({ managerId, clientId, event }) => ({ managerId, clientId, event })),
    ),
});
