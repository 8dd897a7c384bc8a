import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { AuditEntry } from '../schemas/audit.js';

export type AuditLogQuery = {
  readonly clientId: string;
  /** Only entries after this one, in (at, id) order (a cursor core decoded and checked). */
  readonly after?: { readonly at: string; readonly id: string };
  readonly limit: number;
};

/**
 * The audit trail (decisions §10): commands append their entries in their own transaction, so a
 * rolled-back command leaves none and a committed change always has its entry. Entries are never
 * updated or deleted through this port; a client's are read oldest first, by (at, id).
 */
export interface AuditLog {
  append(entries: readonly AuditEntry[]): ResultAsync<void, StorageUnavailable>;
  listForClient(query: AuditLogQuery): ResultAsync<AuditEntry[], StorageUnavailable>;
}
