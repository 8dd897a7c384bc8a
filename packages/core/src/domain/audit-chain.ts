import type { AuditChainBreakReason, AuditChange, AuditEntry } from '../schemas/audit.js';
import type { AuditSeal, AuditSealer } from './audit-seal.js';
import { REDACTED_VALUE, redactedDocumentKey } from './client-redaction.js';

/** SHA-256 of UTF-8 text as hex (the kit's `TextHashing` port fits). */
type TextHashing = { sha256Hex(text: string): string };

/**
 * What ties an audit entry to the one before it in its client's trail (docs/decisions.md, "The audit
 * chain"). The store computes it as it appends (PostgreSQL: a trigger, migration 0007), so no
 * writer can skip it; core only checks it.
 */
export type AuditChainLink = {
  /** 1 for a client's first entry, then one more per entry. */
  readonly sequence: number;
  /** The `hash` of the client's entry before this one; null for the first. */
  readonly previousHash: string | null;
  /** A random salt of `changesDigest`; redaction erases it with the values (null afterwards). */
  readonly changesSalt: string | null;
  /** SHA-256 of the salt and the changes as written: kept through redaction, so the chain still checks. */
  readonly changesDigest: string;
  /**
   * SHA-256 of the same salt and the documents as written (`auditDocumentsDigest`), kept through
   * redaction, which may then replace their file names. Null for an entry chained before migration
   * 0027 (version 1): its hash covers the documents as written, so they are never redacted.
   */
  readonly documentsDigest: string | null;
  /** SHA-256 of everything else of the entry, the digests and the link before it. */
  readonly hash: string;
  /** The host's HMAC of `hash` (`AuditSealer`), made as the entry was appended; null without one. */
  readonly seal: AuditSeal | null;
};

/** A client's entries may go back in time by this much (the clocks of several processes), no more. */
export const AUDIT_BACKDATING_TOLERANCE_MS = 5 * 60_000;

/** The first link of a trail that does not hold, and why. */
export type AuditChainBreak = {
  readonly entryId: string;
  readonly sequence: number;
  readonly reason: AuditChainBreakReason;
};

/** The text the changes digest covers: the salt, a newline, the changes' JSON as written. */
export const auditChangesDigest = (
  hashing: TextHashing,
  salt: string,
  changes: readonly AuditChange[],
): string => hashing.sha256Hex(`${salt}\n${JSON.stringify(changes)}`);

/** The text the documents digest covers: the salt, a newline, the documents' JSON as written. */
export const auditDocumentsDigest = (
  hashing: TextHashing,
  salt: string,
  documents: readonly string[],
): string => hashing.sha256Hex(`${salt}\n${JSON.stringify(documents)}`);

/**
 * The entry's hash: SHA-256 of a JSON array of the link before it, its sequence, its fields but
 * `changes`, and the changes digest. Version 2 (a documents digest, migration 0027) hashes the
 * documents as redaction leaves them (`redactedDocumentKey`: their ids, which stay) and their
 * digest in their place; version 1 (migration 0007) the documents as written. PostgreSQL builds
 * the same texts.
 */
export const auditEntryHash = (
  hashing: TextHashing,
  link: Pick<AuditChainLink, 'previousHash' | 'sequence' | 'changesDigest' | 'documentsDigest'>,
  entry: AuditEntry,
): string =>
  hashing.sha256Hex(
    JSON.stringify([
      link.previousHash,
      link.sequence,
      entry.id,
      entry.clientId,
      entry.action,
      entry.actor.kind,
      entry.actor.id,
      entry.requestId,
      entry.at,
      ...(link.documentsDigest === null
        ? [entry.documents]
        : [entry.documents.map(redactedDocumentKey), link.documentsDigest]),
      link.changesDigest,
    ]),
  );

/** The link of an entry appended after `previous` (null: the client's first), sealed when a sealer is given. */
export const nextAuditChainLink = (
  hashing: TextHashing,
  previous: AuditChainLink | null,
  entry: AuditEntry,
  salt: string,
  sealer?: AuditSealer,
): AuditChainLink => {
  const changesDigest = auditChangesDigest(hashing, salt, entry.changes);
  const documentsDigest = auditDocumentsDigest(hashing, salt, entry.documents);
  const sequence = (previous?.sequence ?? 0) + 1;
  const previousHash = previous?.hash ?? null;
  const hash = auditEntryHash(hashing, { previousHash, sequence, changesDigest, documentsDigest }, entry);
  const seal = sealer?.(hash) ?? null;
  return { sequence, previousHash, changesSalt: salt, changesDigest, documentsDigest, hash, seal };
};

/** Whether an entry dated `at` may follow one dated `previousAt` in a trail. */
export const isBackdated = (previousAt: string, at: string): boolean =>
  Date.parse(at) < Date.parse(previousAt) - AUDIT_BACKDATING_TOLERANCE_MS;

/** What redaction leaves of changes: every value null or `REDACTED_VALUE`. */
const isRedactedForm = (changes: readonly AuditChange[]): boolean =>
  changes.every(
    ({ before, after }) =>
      (before === null || before === REDACTED_VALUE) && (after === null || after === REDACTED_VALUE),
  );

/** What redaction leaves of documents: each key's file name replaced (`redactedDocumentKey`). */
const isRedactedDocuments = (documents: readonly string[]): boolean =>
  documents.every((key) => key === redactedDocumentKey(key));

/** An entry as read back, with its link. */
export type ChainedAuditEntry = { readonly entry: AuditEntry; readonly link: AuditChainLink };

/**
 * Checks one entry against the one before it (null: it must be the first). `clientRedacted`: the
 * client's personal data was erased, so an entry whose salt is gone may hold only redacted values.
 */
export const checkAuditChainLink = (
  hashing: TextHashing,
  previous: ChainedAuditEntry | null,
  current: ChainedAuditEntry,
  clientRedacted: boolean,
): AuditChainBreak | null => {
  const { entry, link } = current;
  const broken = (reason: AuditChainBreakReason): AuditChainBreak => ({
    entryId: entry.id,
    sequence: link.sequence,
    reason,
  });
  if (
    link.sequence !== (previous?.link.sequence ?? 0) + 1 ||
    link.previousHash !== (previous?.link.hash ?? null)
  ) {
    return broken('CHAIN_BROKEN');
  }
  if (auditEntryHash(hashing, link, entry) !== link.hash) return broken('ENTRY_ALTERED');
  // A version 1 entry's documents are covered by its hash; a version 2 entry's file names by their
  // salted digest, or, once redaction erased the salt, by being redacted.
  const documentsHold =
    link.documentsDigest === null ||
    (link.changesSalt === null
      ? isRedactedDocuments(entry.documents)
      : auditDocumentsDigest(hashing, link.changesSalt, entry.documents) === link.documentsDigest);
  if (!documentsHold) return broken('ENTRY_ALTERED');
  const changesHold =
    link.changesSalt === null
      ? clientRedacted && isRedactedForm(entry.changes)
      : auditChangesDigest(hashing, link.changesSalt, entry.changes) === link.changesDigest;
  if (!changesHold) return broken('CHANGES_ALTERED');
  if (previous !== null && isBackdated(previous.entry.at, entry.at)) return broken('BACKDATED');
  return null;
};

/** The first broken link of a whole trail (in sequence order), or null when every link holds. */
export const firstAuditChainBreak = (
  hashing: TextHashing,
  trail: readonly ChainedAuditEntry[],
  clientRedacted: boolean,
): AuditChainBreak | null => {
  let previous: ChainedAuditEntry | null = null;
  for (const current of trail) {
    const broken = checkAuditChainLink(hashing, previous, current, clientRedacted);
    if (broken !== null) return broken;
    previous = current;
  }
  return null;
};
