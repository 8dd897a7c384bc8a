import { type AuditLog, storageUnavailable } from '@onboarding-kit/core';
import { err, ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

/**
 * The audit trail in memory: entries are staged with their transaction and only ever added (an
 * entry whose id is already taken is refused, as PostgreSQL's primary key refuses it); a client's
 * are read in (at, id) order.
 */
export const createMemoryAuditLog = (access: TableAccess): AuditLog => ({
  append: (entries) =>
    access.write((tables) => {
      const ids = new Set<string>();
      for (const entry of entries) {
        if (tables.auditEntries.has(entry.id) || ids.has(entry.id)) {
          return err(storageUnavailable('memory')(new Error(`The audit entry ${entry.id} already exists`)));
        }
        ids.add(entry.id);
      }
      for (const entry of entries) tables.auditEntries.set(entry.id, entry);
      return ok(undefined);
    }),
  listForClient: ({ clientId, after, limit }) =>
    access.read((tables) =>
      tables.auditEntries
        .selectWithin(
          'byClient',
          clientId,
          (entry) =>
            entry.clientId === clientId &&
            (after === undefined || entry.at > after.at || (entry.at === after.at && entry.id > after.id)),
        )
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, Math.max(1, Math.floor(limit))),
    ),
});
