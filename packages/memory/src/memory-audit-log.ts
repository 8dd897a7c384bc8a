import { randomUUID } from 'node:crypto';
import type { AuditChange } from '@onboarding-kit/core';
import {
  type AuditChainLink,
  type AuditLog,
  isBackdated,
  nextAuditChainLink,
  type PositionedAuditEntry,
  REDACTED_VALUE,
  storageUnavailable,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import type { AuditRow } from './memory-tables.js';
import { ascending, descending } from './memory-tables.js';
import { nodeTextHashing } from './node-text-hashing.js';

/**
 * The audit trail in memory: each entry takes the next position of the log, in the order appended
 * (writers run one at a time), as PostgreSQL's identity column gives it, and is chained to its
 * client's entry before it as PostgreSQL's trigger chains it (migration 0007). Entries are only
 * ever added: an id already taken is refused, as PostgreSQL's primary key refuses it, and so is an
 * entry dated more than five minutes before its client's last. `redactChanges` is the one rewrite.
 */
export const createMemoryAuditLog = (access: TableAccess): AuditLog => ({
  append: (entries) =>
    access.write((tables) => {
      const ids = new Set(entries.map(({ id }) => id));
      if (ids.size < entries.length || entries.some(({ id }) => tables.auditEntries.get(id) !== undefined)) {
        return err(storageUnavailable('memory')(new Error('An audit entry id is already taken')));
      }
      const rows: AuditRow[] = [];
      const last = new Map<string, AuditRow>();
      const lastOf = (clientId: string): AuditRow | undefined => {
        const appended = last.get(clientId);
        if (appended !== undefined) return appended;
        for (const [, id] of descending(tables.auditByClient, clientId)) return tables.auditEntries.get(id);
        return undefined;
      };
      for (const entry of entries) {
        const previous = lastOf(entry.clientId);
        if (previous !== undefined && isBackdated(previous.entry.at, entry.at)) {
          return err(storageUnavailable('memory')(new Error(`The audit entry ${entry.id} is backdated`)));
        }
        // Entries are never removed: the next position is one past the count, across all trails.
        const position = tables.auditByClient.length + 1 + rows.length;
        const link: AuditChainLink = nextAuditChainLink(
          nodeTextHashing,
          previous?.link ?? null,
          entry,
          randomUUID(),
        );
        const row = frozenClone({ position, entry, link });
        rows.push(row);
        last.set(entry.clientId, row);
      }
      for (const row of rows) {
        tables.auditEntries.set(row.entry.id, row);
        tables.auditByClient = tables.auditByClient.insert([row.entry.clientId, row.position], row.entry.id);
      }
      return ok(undefined);
    }),
  listForClient: ({ clientId, afterPosition = '0', limit }) =>
    access.read((tables) => {
      const page: PositionedAuditEntry[] = [];
      for (const [, id] of ascending(tables.auditByClient, clientId, [clientId, Number(afterPosition) + 1])) {
        if (page.length >= Math.max(1, Math.floor(limit))) break;
        const row = tables.auditEntries.get(id);
        if (row !== undefined)
          page.push({ position: String(row.position), entry: row.entry, link: row.link });
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
        tables.auditEntries.set(
          id,
          frozenClone({ ...row, entry: { ...row.entry, changes }, link: { ...row.link, changesSalt: null } }),
        );
      }
      return ok(undefined);
    }),
});
