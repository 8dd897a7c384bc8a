import type { ResultAsync } from 'neverthrow';
import type { DocumentRecord } from '../domain/documents.js';
import type { StorageUnavailable } from '../errors.js';

/**
 * A command's claim on the uploads it is about to promote, taken before any copy so that one upload
 * is used by at most one command. `uploads` are the distinct names core gives each upload
 * (`uploadNameOf`, a digest that includes the owner): the same file uploaded again is another name.
 */
export type UploadClaim = {
  /** The claiming command's own random id. */
  readonly holder: string;
  readonly uploads: readonly string[];
  readonly now: Date;
  /** Until when the claim holds if its holder neither commits nor releases it (it crashed). */
  readonly expiresAt: Date;
};

/** Which client each permanent document belongs to: the guard of every download. */
export interface DocumentIndex {
  /**
   * Writes the rows of promoted documents. A row names the upload it was made from (`upload`), and
   * an index holds at most one row per upload: a second one is refused (StorageUnavailable, like any
   * constraint), so even a claim that expired under a slow holder cannot make two documents.
   */
  insertMany(documents: readonly DocumentRecord[]): ResultAsync<void, StorageUnavailable>;
  /** The documents among `keys` that belong to a client of `managerId` (others are left out). */
  findByKeys(managerId: string, keys: readonly string[]): ResultAsync<DocumentRecord[], StorageUnavailable>;
  /** The keys among `keys` that have an index row, whoever owns them (the orphan sweep's check). */
  findIndexedKeys(keys: readonly string[]): ResultAsync<string[], StorageUnavailable>;
  /**
   * Claims each upload for `holder` until `expiresAt`, atomically per upload, and resolves to the
   * uploads it refused: those another holder's claim holds (it expires after `now`) and those a
   * document was already made from. The others are claimed even when some are refused; the holder
   * releases them. A claim ends when released, when it expires, or once a document is made from
   * its upload (the document row keeps the upload used; an adapter may keep the claim until it
   * expires). An adapter may drop expired claims of anyone here.
   */
  claimUploads(claim: UploadClaim): ResultAsync<string[], StorageUnavailable>;
  /** Drops the claims `holder` holds among `uploads` (its command failed): they are free again at once. */
  releaseUploads(holder: string, uploads: readonly string[]): ResultAsync<void, StorageUnavailable>;
  /**
   * Replaces the file name of each of the client's documents, in its `filename` (by
   * `REDACTED_VALUE`) and in its key (`redactedDocumentKey`: `<uuid>_[redacted]`); its other
   * fields, the upload it was made from included, stay. Idempotent. For the redaction of a deleted
   * client, after its documents were deleted from storage (decisions §11); nothing else calls it.
   */
  redactForClient(clientId: string): ResultAsync<void, StorageUnavailable>;
}
