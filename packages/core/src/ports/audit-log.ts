import type { ResultAsync } from 'neverthrow';
import type { AuditChainLink } from '../domain/audit-chain.js';
import type { AuditSealer } from '../domain/audit-seal.js';
import type { StorageUnavailable } from '../errors.js';
import type { AuditEntry } from '../schemas/audit.js';

/**
 * An entry read back with its place in the trail: decimal digits (a bigint), increasing in the
 * order the entries were appended, which for one client is the order of its changes (they lock the
 * client). Entries of one millisecond keep that order, which their `at` alone could not.
 */
export type PositionedAuditEntry = {
  readonly position: string;
  readonly entry: AuditEntry;
  /** Its link in the client's hash chain, as the store computed it on append. */
  readonly link: AuditChainLink;
};

export type AuditLogQuery = {
  readonly clientId: string;
  /** Only entries after this position (one the log returned, checked by core's cursor codec). */
  readonly afterPosition?: string;
  readonly limit: number;
};

export { REDACTED_VALUE } from '../domain/client-redaction.js';

/**
 * The audit trail (decisions §10): commands append their entries in their own transaction, so a
 * rolled-back command leaves none and a committed change always has its entry. Entries are never
 * updated or deleted through this port (an id already taken is refused) but by `redactChanges`;
 * a client's are read oldest first, by position, which is the order of its hash chain.
 *
 * The store chains each entry it appends to the client's entry before it (`nextAuditChainLink`:
 * sequence, previous hash, salted digest of the changes, hash), one append after the other per
 * client even across processes, and refuses an entry dated more than
 * `AUDIT_BACKDATING_TOLERANCE_MS` before the client's last one. Given a `sealer` (the kit passes
 * one when the host configured `auditSealing`), it stores `sealer(hash)` with each entry, in the
 * same transaction: an entry is never kept without the seal it was appended with. A seal is never
 * replaced; `listForClient` reads it back in the entry's link (null for an entry appended without).
 */
export interface AuditLog {
  append(entries: readonly AuditEntry[], sealer?: AuditSealer): ResultAsync<void, StorageUnavailable>;
  listForClient(query: AuditLogQuery): ResultAsync<PositionedAuditEntry[], StorageUnavailable>;
  /**
   * Replaces every `before` and `after` of the client's entries that is not null by
   * `REDACTED_VALUE`, and the file name of each document key of the entries chained with a
   * documents digest by it (`redactedDocumentKey`; entries chained before, version 1, keep their
   * documents, which their hash covers), and erases the salt of their digests (paths, ids,
   * actions, actors, request ids, times, the digests and hashes stay, so the chain still checks).
   * Idempotent. For the redaction of a deleted client (decisions §11); nothing else calls it.
   */
  redactChanges(clientId: string): ResultAsync<void, StorageUnavailable>;
}
