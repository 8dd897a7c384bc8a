import type { ResultAsync } from 'neverthrow';
import type { TemporaryFile } from '../domain/documents.js';
import type { StorageUnavailable, TemporaryFilesChanged, TemporaryStorageFull } from '../errors.js';

/**
 * How a caller uploads one file: a PUT of the bytes with `headers`, or (a storage that bounds the
 * size itself: S3 cannot bound a presigned PUT of unknown size) a multipart POST of `fields` then
 * the file, under a policy the storage enforces.
 */
export type PresignedUpload =
  | { readonly url: string; readonly method: 'PUT'; readonly headers: Readonly<Record<string, string>> }
  | {
      readonly url: string;
      readonly method: 'POST';
      readonly headers: Readonly<Record<string, string>>;
      readonly fields: Readonly<Record<string, string>>;
    };

export type PromotionItem = {
  /** Owner of the temporary file (`principalKey` of the uploader). */
  readonly owner: string;
  readonly filename: string;
  /** Permanent document key, `<uuid>_<filename>`. */
  readonly key: string;
  /** The version that was checked: the copy is made only from that version. */
  readonly version: string;
};

/** A temporary file to delete if it is still the version that was used. */
export type UsedTemporaryFile = { readonly filename: string; readonly version: string };

/** A permanent object as listed: its document key and when it was written. */
export type PermanentDocument = { readonly key: string; readonly storedAt: Date };

/** One page of the permanent area, in key order; `next` continues after it, null at the end. */
export type PermanentDocumentPage = {
  readonly documents: readonly PermanentDocument[];
  readonly next: string | null;
};

/**
 * Where files live: a temporary area per owner (filled through presigned uploads, emptied after
 * 24 hours) and a permanent area keyed by document key. Promotion is split in steps so that a
 * command can copy first, commit, then delete (and remove its copies when the commit fails).
 */
export interface DocumentStorage {
  /**
   * One upload link per filename (distinct names), in their order, or none: `TemporaryStorageFull`
   * when the owner would then hold more than its bound of files or bytes (its unexpired uploads and
   * the links it holds that are still valid; a name it already holds counts once). The bound is the
   * storage's own (memory and S3: 100 files and 256 MiB per owner by default).
   */
  presignUploads(
    owner: string,
    filenames: readonly string[],
    expiresAt: Date,
  ): ResultAsync<PresignedUpload[], StorageUnavailable | TemporaryStorageFull>;
  /** Every file in the owner's temporary area (expiry is judged by core with its clock). */
  listTemporary(owner: string): ResultAsync<TemporaryFile[], StorageUnavailable>;
  /** One temporary file, or null when it is not there. */
  statTemporary(owner: string, filename: string): ResultAsync<TemporaryFile | null, StorageUnavailable>;
  /**
   * Copies temporary files to their permanent keys (the temporary files stay), each only from the
   * version the item names (S3: `CopySourceIfMatch`). A source that is gone or was replaced since is
   * `TemporaryFilesChanged`; on any failure no copy of the call is left behind.
   */
  copyToPermanent(
    items: readonly PromotionItem[],
  ): ResultAsync<void, StorageUnavailable | TemporaryFilesChanged>;
  /** Deletes the owner's temporary files that are still at the version used (a newer upload stays). */
  deleteTemporary(owner: string, files: readonly UsedTemporaryFile[]): ResultAsync<void, StorageUnavailable>;
  /** A page of at most `limit` permanent documents, after the page token `after` (null: from the start). */
  listPermanent(after: string | null, limit: number): ResultAsync<PermanentDocumentPage, StorageUnavailable>;
  /**
   * The keys among `keys` that have no permanent object (at most 50 a call: one download batch).
   * A download presigns only documents whose bytes exist: an index that outlived the bytes (memory
   * storage after a restart, an object removed from the bucket) answers "not found", not a dead link.
   */
  missingPermanent(keys: readonly string[]): ResultAsync<string[], StorageUnavailable>;
  /** Removes permanent copies: the compensation of a command whose commit failed. */
  deletePermanent(keys: readonly string[]): ResultAsync<void, StorageUnavailable>;
  /** A GET address that downloads the document as an attachment named `filename`. */
  presignDownload(key: string, filename: string, expiresAt: Date): ResultAsync<string, StorageUnavailable>;
}
