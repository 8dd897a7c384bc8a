import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '@onboarding-kit/core';
import {
  type DocumentStorage,
  signedLinkRejected,
  temporaryFilesChanged,
  temporaryStorageFull,
} from '@onboarding-kit/core/adapter';
import { err, errAsync, ok, okAsync } from 'neverthrow';
import { linkSeal, type SignedLinkPayload } from './signed-link-token.js';

/** `version`: a new id per upload, as S3 gives each upload its ETag. */
type StoredTemporaryFile = {
  readonly bytes: Uint8Array;
  readonly uploadedAt: Date;
  readonly version: string;
};

/** The options of `createMemoryAdapters` that shape its document storage. */
export type MemoryDocumentStorageOptions = {
  /** The secret the presigned links are sealed with (default: 32 random bytes: links die with the process). */
  readonly signingSecret?: string | Uint8Array;
  /** Where the express storage router is mounted (default 'http://localhost:3000/storage'). */
  readonly publicBaseUrl?: string;
  /**
   * Largest upload body accepted (default 25 MiB + 1 KiB): a bit above core's 25 MiB limit at use,
   * so that an over-limit file can be uploaded and the rule exercised where it applies.
   */
  readonly maxUploadBytes?: number;
  /** How long an uploaded file stays before it is purged (default 24 hours, as core judges it). */
  readonly temporaryFileTtlMs?: number;
  /**
   * Per-owner bound on temporary storage, so that one key cannot fill the process's memory
   * (defaults: 100 files and 256 MiB per owner). An upload past it answers 413.
   */
  readonly maxTemporaryFilesPerOwner?: number;
  readonly maxTemporaryBytesPerOwner?: number;
};

/**
 * Document storage in memory, serving its own presigned links: signed, expiring tokens that the
 * express storage router passes to `signedLinks`. Temporary files are per owner, permanent ones
 * per document key; expiry of temporary files is core's to judge, and they are purged (memory
 * freed, not only hidden) as S3's lifecycle rule does.
 */
export const createMemoryDocumentStorage = (clock: Clock, options: MemoryDocumentStorageOptions) => {
  const seal = linkSeal(options.signingSecret ?? randomBytes(32));
  const maxUploadBytes = options.maxUploadBytes ?? 25 * 1024 * 1024 + 1024;
  const temporaryFileTtlMs = options.temporaryFileTtlMs ?? 24 * 60 * 60_000;
  const maxFilesPerOwner = options.maxTemporaryFilesPerOwner ?? 100;
  const maxBytesPerOwner = options.maxTemporaryBytesPerOwner ?? 256 * 1024 * 1024;
  const base = (options.publicBaseUrl ?? 'http://localhost:3000/storage').replace(/\/+$/, '');
  const temporary = new Map<string, Map<string, StoredTemporaryFile>>();
  const permanent = new Map<string, { readonly bytes: Uint8Array; readonly storedAt: Date }>();

  const putTemporary = (owner: string, filename: string, body: Uint8Array): void => {
    const files = temporary.get(owner) ?? new Map<string, StoredTemporaryFile>();
    // A copy: the caller's buffer (often a pooled Node Buffer) may be reused after this returns.
    files.set(filename, { bytes: new Uint8Array(body), uploadedAt: clock.now(), version: randomUUID() });
    temporary.set(owner, files);
  };
  const purgeExpired = (owner?: string): number => {
    let removed = 0;
    for (const name of owner === undefined ? [...temporary.keys()] : [owner]) {
      const files = temporary.get(name) ?? new Map<string, StoredTemporaryFile>();
      for (const [filename, file] of files) {
        if (file.uploadedAt.getTime() + temporaryFileTtlMs > clock.now().getTime()) continue;
        files.delete(filename);
        removed += 1;
      }
      if (files.size === 0) temporary.delete(name);
    }
    return removed;
  };
  const describe = (filename: string, { bytes, uploadedAt, version }: StoredTemporaryFile) => ({
    filename,
    size: bytes.byteLength,
    uploadedAt: new Date(uploadedAt),
    version,
  });
  const linkTo = (route: 'uploads' | 'downloads', payload: SignedLinkPayload) =>
    `${base}/${route}/${seal.sign(payload)}`;

  const storage: DocumentStorage = {
    // Files are counted here and bytes exactly at upload (`uploadAllowed`): a link holds no room.
    presignUploads: (owner, filenames, expiresAt) => {
      purgeExpired(owner);
      const held = [...(temporary.get(owner) ?? [])].filter(([name]) => !filenames.includes(name));
      if (held.length + filenames.length > maxFilesPerOwner) {
        const first = Math.min(...held.map(([, file]) => file.uploadedAt.getTime()));
        const retryMs = first + temporaryFileTtlMs - clock.now().getTime();
        return errAsync(temporaryStorageFull(maxFilesPerOwner, maxBytesPerOwner, retryMs));
      }
      return okAsync(
        filenames.map((filename) => ({
          url: linkTo('uploads', { op: 'upload', owner, filename, exp: expiresAt.getTime() }),
          method: 'PUT' as const,
          headers: { 'content-type': 'application/octet-stream' },
        })),
      );
    },
    listTemporary: (owner) => {
      purgeExpired(owner);
      return okAsync([...(temporary.get(owner) ?? [])].map(([filename, file]) => describe(filename, file)));
    },
    statTemporary: (owner, filename) => {
      const file = temporary.get(owner)?.get(filename);
      return okAsync(file === undefined ? null : describe(filename, file));
    },
    copyToPermanent: (items) => {
      // Check every source first, so a missing or replaced one copies nothing.
      const changed = items.filter(
        (item) => temporary.get(item.owner)?.get(item.filename)?.version !== item.version,
      );
      if (changed.length > 0) return errAsync(temporaryFilesChanged(changed.map((item) => item.filename)));
      for (const item of items) {
        const file = temporary.get(item.owner)?.get(item.filename);
        // Stored bytes are never written in place, so the permanent copy may share them.
        if (file !== undefined) permanent.set(item.key, { bytes: file.bytes, storedAt: clock.now() });
      }
      return okAsync(undefined);
    },
    listPermanent: (after, limit) => {
      const stored = [...permanent]
        .filter(([key]) => after === null || key > after)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      const documents = stored
        .slice(0, limit)
        .map(([key, { storedAt }]) => ({ key, storedAt: new Date(storedAt) }));
      return okAsync({
        documents,
        next: documents.length < stored.length ? (documents.at(-1)?.key ?? null) : null,
      });
    },
    deleteTemporary: (owner, used) => {
      const files = temporary.get(owner);
      for (const { filename, version } of used) {
        if (files?.get(filename)?.version === version) files.delete(filename);
      }
      if (files?.size === 0) temporary.delete(owner);
      return okAsync(undefined);
    },
    missingPermanent: (keys) => okAsync(keys.filter((key) => !permanent.has(key))),
    deletePermanent: (keys) => {
      for (const key of keys) permanent.delete(key);
      return okAsync(undefined);
    },
    presignDownload: (key, filename, expiresAt) =>
      okAsync(linkTo('downloads', { op: 'download', key, filename, exp: expiresAt.getTime() })),
  };

  // An upload token is no download token, and the reverse.
  const verified = <Op extends SignedLinkPayload['op']>(token: string, op: Op) =>
    seal
      .verify(token, clock.now())
      .andThen((payload) =>
        payload.op === op
          ? ok(payload as Extract<SignedLinkPayload, { op: Op }>)
          : err(signedLinkRejected('invalid')),
      );
  /** The link, if it is valid and its owner has room for `bytes` more (a same-name file is replaced). */
  const uploadAllowed = (token: string, bytes: number) =>
    verified(token, 'upload').andThen((link) => {
      if (bytes > maxUploadBytes) return err(signedLinkRejected('too-large'));
      purgeExpired(link.owner);
      const others = [...(temporary.get(link.owner) ?? [])].filter(
        ([filename]) => filename !== link.filename,
      );
      const total = others.reduce((sum, [, file]) => sum + file.bytes.byteLength, bytes);
      if (others.length + 1 > maxFilesPerOwner || total > maxBytesPerOwner) {
        return err(signedLinkRejected('quota-exceeded'));
      }
      return ok(link);
    });

  /**
   * The links memory storage serves itself, in the shape `createSignedLinkRouter` of the Express
   * binding takes (`SignedLinkEndpoint`): checked before the body is read, then stored or served.
   */
  const signedLinks = {
    maxUploadBytes,
    verifyUpload: (token: string) =>
      uploadAllowed(token, 0).map(({ owner, filename }) => ({ owner, filename })),
    acceptUpload: (token: string, body: Uint8Array) => {
      const link = uploadAllowed(token, body.byteLength);
      if (link.isOk()) putTemporary(link.value.owner, link.value.filename, body);
      return link.asyncMap(async () => undefined);
    },
    openDownload: (token: string) => {
      const link = verified(token, 'download');
      if (link.isErr()) return errAsync(link.error);
      const bytes = permanent.get(link.value.key)?.bytes;
      // A document removed since the link was signed: the link no longer leads anywhere.
      if (bytes === undefined) return errAsync(signedLinkRejected('invalid'));
      return okAsync({ body: new Uint8Array(bytes), filename: link.value.filename });
    },
  };

  return { storage, signedLinks, temporary, permanent, putTemporary, purgeExpired };
};

export type MemoryDocumentStorage = ReturnType<typeof createMemoryDocumentStorage>;
