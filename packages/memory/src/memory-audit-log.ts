import { randomUUID } from 'node:crypto';
import {
  type AuditLog,
  isBackdated,
  nextAuditChainLink,
  type PositionedAuditEntry,
  REDACTED_VALUE,
  redactedDocumentKey,
} from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import { nextNumber, type TableAccess } from './memory-database.js';
import { nodeTextHashing } from './node-text-hashing.js';

/**
 * The audit trail in memory: each entry takes the next position of the log, in the order appended
 * (writers run one at a time), as PostgreSQL's identity column gives it, and is chained to its
 * client's entry before it as PostgreSQL's trigger chains it (migration 0007). Entries are only
 * ever added: an id already taken is refused, as PostgreSQL's primary key refuses it, and so is an
 * entry dated more than five minutes before its client's last. `redactChanges` is the one rewrite.
 * A refused append throws, which fails its write (StorageUnavailable): nothing of it is kept.
 */
export const createMemoryAuditLog = (access: TableAccess): AuditLog => ({
  append: (entries, sealer) =>
    access.write((tables) => {
      for (const entry of entries) {
        if (tables.auditEntries.get(entry.id) !== undefined)
          throw new Error('An audit entry id is already taken');
        const previousId = tables.auditHeads.get(entry.clientId);
        const previous = previousId === undefined ? undefined : tables.auditEntries.get(previousId);
        if (previous !== undefined && isBackdated(previous.entry.at, entry.at))
          throw new Error(`The audit entry ${entry.id} is backdated`);
        const link = nextAuditChainLink(nodeTextHashing, previous?.link ?? null, entry, randomUUID(), sealer);
        tables.auditEntries.set(
          entry.id,
          frozenClone({ position: nextNumber(tables, 'audit'), entry, link }),
        );
        tables.auditHeads.set(entry.clientId, entry.id);
      }
      return ok(undefined);
    }),
  listForClient: ({ clientId, afterPosition = '0', limit }) =>
    access.read((tables) => {
      const page: PositionedAuditEntry[] = [];
      for (const { position, entry, link } of tables.auditEntries.values()) {
        if (page.length >= Math.max(1, Math.floor(limit))) break;
        if (entry.clientId === clientId && position > Number(afterPosition)) {
          page.push({ position: String(position), entry, link });
        }
      }
      return page;
    }),
  redactChanges: (clientId) =>
    access.write((tables) => {
      const redacted = (value: unknown) => (value === null ? null : REDACTED_VALUE);
      for (const row of [...tables.auditEntries.values()]) {
        if (row.entry.clientId !== clientId) continue;
        const changes = row.entry.changes.map(({ path, before, after }) => ({
          path,
          before: redacted(before),
          after: redacted(after),
        }));
        // Version 1 (no documents digest): the hash covers the documents as written, they stay.
        const { documentsDigest: v2 } = row.link;
        const documents = v2 === null ? row.entry.documents : row.entry.documents.map(redactedDocumentKey);
        const entry = { ...row.entry, changes, documents };
        tables.auditEntries.set(
          entry.id,
          frozenClone({ ...row, entry, link: { ...row.link, changesSalt: null } }),
        );
      }
      return ok(undefined);
    }),
});
