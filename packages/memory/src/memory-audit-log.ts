import { type AuditChange, type AuditLog, REDACTED_VALUE, storageUnavailable } from '@onboarding-kit/core';
import { err, ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

/**
 * The audit trail in memory: entries are staged with their transaction and numbered as they are
 * appended (transactions run one at a time, so positions follow commit order). Entries are only
 * ever added: an id already taken is refused, as PostgreSQL's primary key refuses it.
 */
export const createMemoryAuditLog = (access: TableAccess): AuditLog => ({
  append: (entries) =>
    access.write((tables) => {
      const ids = new Set(entries.map(({ id }) => id));
      const taken = entries.find(
        ({ id }) => tables.auditEntries.selectWithin('byId', id, (row) => row.entry.id === id).length > 0,
      );
      if (taken !== undefined || ids.size < entries.length) {
        return err(storageUnavailable('memory')(new Error('An audit entry id is already taken')));
      }
      let position = tables.auditEntries.size();
      for (const entry of entries) {
        position += 1;
        tables.auditEntries.set(position, { position, entry });
      }
      return ok(undefined);
    }),
  listForClient: ({ clientId, afterPosition = '0', limit }) =>
    access.read((tables) =>
      tables.auditEntries
        .selectWithin(
          'byClient',
          clientId,
          (row) => row.entry.clientId === clientId && row.position > Number(afterPosition),
        )
        .sort((a, b) => a.position - b.position)
        .slice(0, Math.max(1, Math.floor(limit)))
        .map(({ position, entry }) => ({ position: String(position), entry })),
    ),
  redactChanges: (clientId) =>
    access.write((tables) => {
      const redacted = (value: unknown) => (value === null ? null : REDACTED_VALUE);
      for (const row of tables.auditEntries.selectWithin(
        'byClient',
        clientId,
        (r) => r.entry.clientId === clientId,
      )) {
        const changes = row.entry.changes.map(
          ({ path, before, after }): AuditChange => ({
            path,
            before: redacted(before),
            after: redacted(after),
          }),
        );
        tables.auditEntries.set(row.position, { ...row, entry: { ...row.entry, changes } });
      }
      return ok(undefined);
    }),
});
