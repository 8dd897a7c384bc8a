import type { EventLog, PositionedEvent } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import { nextNumber, type TableAccess } from './memory-database.js';

/**
 * The outbox in memory: events are written with their transaction and numbered as they are
 * appended; writers run one at a time, so positions follow commit order.
 */
export const createMemoryEventLog = (access: TableAccess): EventLog => ({
  append: (events) =>
    access.write((tables) => {
      for (const logged of events) {
        tables.events.set(
          logged.event.id,
          frozenClone({ ...logged, position: nextNumber(tables, 'events') }),
        );
      }
      return ok(undefined);
    }),
  listForManager: ({ managerId, afterPosition = '0', limit, type, clientId }) =>
    access.read((tables) => {
      const page: PositionedEvent[] = [];
      for (const row of tables.events.values()) {
        if (page.length >= Math.max(1, Math.floor(limit))) break;
        if (
          row.managerId === managerId &&
          row.position > Number(afterPosition) &&
          (type === undefined || row.event.type === type) &&
          (clientId === undefined || row.clientId === clientId)
        ) {
          page.push({ position: String(row.position), event: row.event });
        }
      }
      return page;
    }),
  findByIds: (eventIds) =>
    access.read((tables) =>
      [...new Set(eventIds)]
        .flatMap((eventId) => tables.events.get(eventId) ?? [])
        .sort((a, b) => a.position - b.position)
        .map(({ managerId, clientId, event }) => ({ managerId, clientId, event })),
    ),
  rewriteForClient: (clientId, rewrite) =>
    access.write((tables) => {
      for (const row of [...tables.events.values()]) {
        if (row.clientId === clientId) {
          tables.events.set(row.event.id, frozenClone({ ...row, event: rewrite(row.event) }));
        }
      }
      return ok(undefined);
    }),
});
