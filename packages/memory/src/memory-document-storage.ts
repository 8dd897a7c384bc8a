import { randomUUID } from 'node:crypto';
import type { Clock } from '@onboarding-kit/core';
import {
  type DocumentStorage,
  type SignedLinkRejected,
  type StorageUnavailable,
  signedLinkRejected,
  type TemporaryFile,
  temporaryFilesChanged,
} from '@onboarding-kit/core/adapter';
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { type SignedLinkPayload, signLink, verifyLink } from './signed-link-token.js';

export type StoredTemporaryFile = {
  readonly bytes: Uint8Array;
  readonly size: number;
  readonly uploadedAt: Date;
  /** A new id per upload, as S3 gives each upload its ETag. */
  readonly version: string;
};

/**
 * The links memory storage serves itself, in the shape `createSignedLinkRouter` of the Express
 * binding takes (`SignedLinkEndpoint`): checked before the body is read, then stored or served.
 */
export type MemorySignedLinks = {
  /** The link's owner and filename, when it may be uploaded to now. */
  verifyUpload(token: string): Result<{ owner: string; filename: string }, SignedLinkRejected>;
  acceptUpload(token: string, body: Uint8Array): ResultAsync<void, SignedLinkRejected | StorageUnavailable>;
  openDownload(
    token: string,
  ): ResultAsync<{ body: Uint8Array; filename: string }, SignedLinkRejected | StorageUnavailable>;
  /** Largest upload body accepted, in bytes. */
  readonly maxUploadBytes: number;
};

export type StoredDocument = { readonly bytes: Uint8Array; readonly storedAt: Date };

/** The files themselves: temporary ones per owner, permanent ones per document key. */
export type MemoryFileStore = {
  readonly temporary: Map<string, Map<string, StoredTemporaryFile>>;
  readonly permanent: Map<string, StoredDocument>;
};

export type MemoryDocumentStorageOptions = {
  readonly files: MemoryFileStore;
  readonly clock: Clock;
  readonly signingSecret: Uint8Array;
  /** Where the express storage router is mounted: links are `<base>/uploads/<token>`, `<base>/downloads/<token>`. */
  readonly publicBaseUrl: string;
  readonly maxUploadBytes: number;
  /** How long a temporary file lives; older ones are purged (as S3's lifecycle rule does). */
  readonly temporaryFileTtlMs: number;
  /** The most files one owner may keep in temporary storage at once. */
  readonly maxTemporaryFilesPerOwner: number;
  /** The most bytes one owner may keep in temporary storage at once. */
  readonly maxTemporaryBytesPerOwner: number;
};

/** Stores a temporary file as uploaded now, replacing one of the same name. */
export const storeTemporaryFile = (
  files: MemoryFileStore,
  owner: string,
  filename: string,
  body: Uint8Array,
  uploadedAt: Date,
): void => {
  const ownerFiles = files.temporary.get(owner) ?? new Map<string, StoredTemporaryFile>();
  // A copy: the caller's buffer (often a pooled Node Buffer) may be reused after this returns.
  ownerFiles.set(filename, {
    bytes: new Uint8Array(body),
    size: body.byteLength,
    uploadedAt,
    version: randomUUID(),
  });
  files.temporary.set(owner, ownerFiles);
};

const describeFile = (filename: string, file: StoredTemporaryFile): TemporaryFile => ({
  filename,
  size: file.size,
  uploadedAt: new Date(file.uploadedAt),
  version: file.version,
});

/**
 * Removes the temporary files that expired (uploaded `ttlMs` ago or earlier): memory is freed, not
 * only hidden. Resolves to how many files were removed.
 */
export const purgeExpiredTemporaryFiles = (files: MemoryFileStore, now: Date, ttlMs: number): number => {
  let removed = 0;
  for (const [owner, ownerFiles] of files.temporary) {
    for (const [filename, file] of ownerFiles) {
      if (file.uploadedAt.getTime() + ttlMs <= now.getTime()) {
        ownerFiles.delete(filename);
        removed += 1;
      }
    }
    if (ownerFiles.size === 0) files.temporary.delete(owner);
  }
  return removed;
};

const purgeOwnerExpired = (files: MemoryFileStore, owner: string, now: Date, ttlMs: number): void => {
  const ownerFiles = files.temporary.get(owner);
  if (ownerFiles === undefined) return;
  for (const [filename, file] of ownerFiles) {
    if (file.uploadedAt.getTime() + ttlMs <= now.getTime()) ownerFiles.delete(filename);
  }
  if (ownerFiles.size === 0) files.temporary.delete(owner);
};

/**
 * Document storage in memory, serving its own presigned links: HMAC-signed, expiring tokens that
 * the express storage router passes to `signedLinks`. Expiry of temporary files is core's to judge.
 */
export const createMemoryDocumentStorage = ({
  files,
  clock,
  signingSecret,
  publicBaseUrl,
  maxUploadBytes,
  temporaryFileTtlMs,
  maxTemporaryFilesPerOwner,
  maxTemporaryBytesPerOwner,
}: MemoryDocumentStorageOptions): { storage: DocumentStorage; signedLinks: MemorySignedLinks } => {
  const base = publicBaseUrl.replace(/\/+$/, '');
  // An upload token is no download token, and the reverse.
  const verified = <Op extends SignedLinkPayload['op']>(
    token: string,
    op: Op,
  ): Result<Extract<SignedLinkPayload, { op: Op }>, SignedLinkRejected> =>
    verifyLink(signingSecret, token, clock.now()).andThen((payload) =>
      payload.op === op
        ? ok(payload as Extract<SignedLinkPayload, { op: Op }>)
        : err(signedLinkRejected('invalid')),
    );

  const storage: DocumentStorage = {
    presignUpload: (owner, filename, expiresAt) =>
      okAsync({
        url: `${base}/uploads/${signLink(signingSecret, { op: 'upload', owner, filename, exp: expiresAt.getTime() })}`,
        method: 'PUT' as const,
        headers: { 'content-type': 'application/octet-stream' },
      }),
    listTemporary: (owner) => {
      purgeOwnerExpired(files, owner, clock.now(), temporaryFileTtlMs);
      return okAsync(
        [...(files.temporary.get(owner) ?? new Map<string, StoredTemporaryFile>())].map(([filename, file]) =>
          describeFile(filename, file),
        ),
      );
    },
    statTemporary: (owner, filename) => {
      const file = files.temporary.get(owner)?.get(filename);
      return okAsync(file === undefined ? null : describeFile(filename, file));
    },
    copyToPermanent: (items) => {
      // Check every source first, so a missing or replaced one copies nothing.
      const changed = items.filter(
        (item) => files.temporary.get(item.owner)?.get(item.filename)?.version !== item.version,
      );
      if (changed.length > 0) return errAsync(temporaryFilesChanged(changed.map((item) => item.filename)));
      for (const item of items) {
        const file = files.temporary.get(item.owner)?.get(item.filename);
        // Stored bytes are never written in place, so the permanent copy may share them.
        if (file !== undefined) files.permanent.set(item.key, { bytes: file.bytes, storedAt: clock.now() });
      }
      return okAsync(undefined);
    },
    listPermanent: (after, limit) => {
      const keys = [...files.permanent.keys()].sort();
      const start = after === null ? 0 : keys.findIndex((key) => key > after);
      const page = start < 0 ? [] : keys.slice(start, start + Math.max(1, Math.floor(limit)));
      const documents = page.map((key) => ({
        key,
        storedAt: new Date(files.permanent.get(key)?.storedAt ?? clock.now()),
      }));
      const last = page.at(-1);
      return okAsync({
        documents,
        next: last !== undefined && keys.at(-1) !== last ? last : null,
      });
    },
    deleteTemporary: (owner, used) => {
      const ownerFiles = files.temporary.get(owner);
      for (const { filename, version } of used) {
        if (ownerFiles?.get(filename)?.version === version) ownerFiles.delete(filename);
      }
      if (ownerFiles?.size === 0) files.temporary.delete(owner);
      return okAsync(undefined);
    },
    missingPermanent: (keys) => okAsync(keys.filter((key) => !files.permanent.has(key))),
    deletePermanent: (keys) => {
      for (const key of keys) files.permanent.delete(key);
      return okAsync(undefined);
    },
    presignDownload: (key, filename, expiresAt) =>
      okAsync(
        `${base}/downloads/${signLink(signingSecret, { op: 'download', key, filename, exp: expiresAt.getTime() })}`,
      ),
  };

  /** The link, if it is valid and its owner has room for `bytes` more (a same-name file is replaced). */
  const uploadAllowed = (
    token: string,
    bytes: number,
  ): Result<Extract<SignedLinkPayload, { op: 'upload' }>, SignedLinkRejected> =>
    verified(token, 'upload').andThen((link) => {
      if (bytes > maxUploadBytes) return err(signedLinkRejected('too-large'));
      purgeOwnerExpired(files, link.owner, clock.now(), temporaryFileTtlMs);
      const ownerFiles = files.temporary.get(link.owner);
      const replaced = ownerFiles?.get(link.filename);
      const count = (ownerFiles?.size ?? 0) - (replaced === undefined ? 0 : 1) + 1;
      let stored = 0;
      for (const file of ownerFiles?.values() ?? []) stored += file.size;
      const total = stored - (replaced?.size ?? 0) + bytes;
      if (count > maxTemporaryFilesPerOwner || total > maxTemporaryBytesPerOwner) {
        return err(signedLinkRejected('quota-exceeded'));
      }
      return ok(link);
    });

  const signedLinks: MemorySignedLinks = {
    maxUploadBytes,
    verifyUpload: (token) => uploadAllowed(token, 0).map(({ owner, filename }) => ({ owner, filename })),
    acceptUpload: (token, body) => {
      const link = uploadAllowed(token, body.byteLength);
      if (link.isErr()) return errAsync(link.error);
      storeTemporaryFile(files, link.value.owner, link.value.filename, body, clock.now());
      return okAsync(undefined);
    },
    openDownload: (token) => {
      const link = verified(token, 'download');
      if (link.isErr()) return errAsync(link.error);
      const bytes = files.permanent.get(link.value.key)?.bytes;
      // A document removed since the link was signed: the link no longer leads anywhere.
      if (bytes === undefined) return errAsync(signedLinkRejected('invalid'));
      return okAsync({ body: new Uint8Array(bytes), filename: link.value.filename });
    },
  };

  return { storage, signedLinks };
};
