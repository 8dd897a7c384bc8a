import type { EventLog, PositionedEvent } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending, entries } from './memory-tables.js';

/**
 * The outbox in memory: events are written with their transaction and numbered as they are
 * appended; writers run one at a time, so positions follow commit order.
 */
export const createMemoryEventLog = (access: TableAccess): EventLog => ({
  append: (events) =>
    access.write((tables) => {
      for (const logged of events) {
        // Events are never removed: the next position is one past the count.
        const row = frozenClone({ ...logged, position: tables.events.length + 1 });
        const key = [row.managerId, row.position];
        tables.events = tables.events.insert(key, row);
        tables.eventKeys.set(row.event.id, key);
      }
      return ok(undefined);
    }),
  listForManager: ({ managerId, afterPosition = '0', limit, type, clientId }) =>
    access.read((tables) => {
      const page: PositionedEvent[] = [];
      const size = Math.max(1, Math.floor(limit));
      const after = Number(afterPosition);
      for (const [, row] of ascending(tables.events, managerId, [managerId, after])) {
        if (page.length >= size) break;
        if (
          row.position <= after ||
          (type !== undefined && row.event.type !== type) ||
          (clientId !== undefined && row.clientId !== clientId)
        ) {
          continue;
        }
        page.push({ position: String(row.position), event: row.event });
      }
      return page;
    }),
  findByIds: (eventIds) =>
    access.read((tables) =>
      [...new Set(eventIds)]
        .flatMap((eventId) => {
          const key = tables.eventKeys.get(eventId);
          const row = key === undefined ? undefined : tables.events.get(key);
          return row === undefined ? [] : [row];
        })
        .sort((a, b) => a.position - b.position)
        .map(({ managerId, clientId, event }) => ({ managerId, clientId, event })),
    ),
  rewriteForClient: (clientId, rewrite) =>
    access.write((tables) => {
      for (const [key, row] of [...entries(tables.events)]) {
        if (row.clientId !== clientId) continue;
        tables.events = tables.events
          .remove(key)
          .insert(key, frozenClone({ ...row, event: rewrite(row.event) }));
      }
      return ok(undefined);
    }),
});
