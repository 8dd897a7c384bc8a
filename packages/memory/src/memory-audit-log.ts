import type { AuditChange } from '@onboarding-kit/core';
import {
  type AuditLog,
  type PositionedAuditEntry,
  REDACTED_VALUE,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending } from './memory-tables.js';

/**
 * The audit trail in memory: each entry takes the next position of the log, in the order appended
 * (writers run one at a time), as PostgreSQL's identity column gives it. Entries are only ever
 * added: an id already taken is refused, as PostgreSQL's primary key refuses it. `redactChanges` is
 * the one rewrite.
 */
export const createMemoryAuditLog = (access: TableAccess): AuditLog => ({
  append: (entries) =>
    access.write((tables) => {
      const ids = new Set(entries.map(({ id }) => id));
      if (ids.size < entries.length || entries.some(({ id }) => tables.auditEntries.get(id) !== undefined)) {
        return err(storageUnavailable('memory')(new Error('An audit entry id is already taken')));
      }
      for (const entry of entries) {
        // Entries are never removed: the next position is one past the count, across all trails.
        const position = tables.auditByClient.length + 1;
        tables.auditEntries.set(entry.id, frozenClone({ position, entry }));
        tables.auditByClient = tables.auditByClient.insert([entry.clientId, position], entry.id);
      }
      return ok(undefined);
    }),
  listForClient: ({ clientId, afterPosition = '0', limit }) =>
    access.read((tables) => {
      const page: PositionedAuditEntry[] = [];
      for (const [, id] of ascending(tables.auditByClient, clientId, [clientId, Number(afterPosition) + 1])) {
        if (page.length >= Math.max(1, Math.floor(limit))) break;
        const row = tables.auditEntries.get(id);
        if (row !== undefined) page.push({ position: String(row.position), entry: row.entry });
      }
      return page;
    }),
  redactChanges: (clientId) =>
    access.write((tables) => {
      const redacted = (value: unknown) => (value === null ? null : REDACTED_VALUE);
      for (const [, id] of ascending(tables.auditByClient, clientId)) {
        const row = tables.auditEntries.get(id);
        if (row === undefined) continue;
        const changes = row.entry.changes.map(
          ({ path, before, after }): AuditChange => ({
            path,
            before: redacted(before),
            after: redacted(after),
          }),
        );
        tables.auditEntries.set(id, frozenClone({ ...row, entry: { ...row.entry, changes } }));
      }
      return ok(undefined);
    }),
});
