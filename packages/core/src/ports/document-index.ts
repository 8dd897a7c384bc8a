import type { ResultAsync } from 'neverthrow';
import type { DocumentRecord } from '../domain/documents.js';
import type { StorageUnavailable } from '../errors.js';

/**
 * A command's claim on the uploads it is about to promote, taken before any copy so that one upload
 * is used by at most one command. `uploads` are names core gives each upload (`uploadNameOf`): the
 * same file uploaded again is another name.
 */
export type UploadClaim = {
  /** The claiming command's own random id. */
  readonly holder: string;
  /** Whose temporary storage the uploads are in. */
  readonly owner: string;
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
   * releases them. A claim is never released by its commit: it expires, and the document row keeps
   * the upload used from then on. May drop expired claims of `owner`.
   */
  claimUploads(claim: UploadClaim): ResultAsync<string[], StorageUnavailable>;
  /** Drops every claim of `holder` on `owner`'s uploads (its command failed): they are free again at once. */
  releaseUploads(owner: string, holder: string): ResultAsync<void, StorageUnavailable>;
}
