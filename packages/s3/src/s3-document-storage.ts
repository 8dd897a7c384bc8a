import {
  CopyObjectCommand,
  type DeletedObject,
  DeleteObjectsCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import {
  attachmentContentDisposition,
  type DocumentStorage,
  type PresignedUpload,
  type PromotionItem,
  type StorageUnavailable,
  settleBounded,
  storageUnavailable,
  type TemporaryFile,
  type TemporaryFilesChanged,
  type TemporaryStorageFull,
  temporaryFilesChanged,
  temporaryStorageFull,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';

import { createObjectUrlPresigner } from './object-url-presigner.js';
import { presignWindow } from './presign-window.js';
import { copySourceOf, filenameDigestOf, s3ObjectKeys } from './s3-object-keys.js';
import {
  heldByName,
  roomForLinks,
  type TemporaryAreaBound,
  type TemporaryAreaListing,
  withinBound,
} from './temporary-area-bound.js';

export type S3DocumentStorageOptions = {
  /**
   * The SDK client. For S3-compatible servers (MinIO, R2, moto) create it with `endpoint`,
   * `forcePathStyle: true` and `requestChecksumCalculation: 'WHEN_REQUIRED'` (see the README).
   */
  readonly client: S3Client;
  readonly bucket: string;
  /** Folder of the uploads, emptied after a day by `ensureTemporaryExpiry` (default `tmp/`). */
  readonly temporaryPrefix?: string;
  /** Folder of the promoted documents (default `documents/`). */
  readonly permanentPrefix?: string;
  /** How many CopyObject calls one promotion runs at once (default 8). */
  readonly promotionConcurrency?: number;
  /** The time presigned links are computed from (default the system clock). */
  readonly now?: () => Date;
  /**
   * The largest file an upload link takes (default 25 MiB, the kit's default `maxDocumentBytes`:
   * keep the two equal). Every upload is a presigned POST whose policy bounds the file
   * (`content-length-range`), so S3 itself refuses a larger one and a link holder cannot fill the
   * bucket; a presigned PUT of unknown size cannot be bounded (decisions §4). Callers send
   * multipart/form-data: the answer's `fields`, then the file as `file`. POST links are signed from
   * the client's clock; `now` does not apply to them.
   */
  readonly maxUploadBytes?: number;
  /**
   * The most files one listing of an owner's uploads reads (default 10,000: ten ListObjects pages),
   * so `GET /uploads` stays bounded whatever an owner uploaded. Beyond it the listing is cut, in
   * key order; the files are still usable by name.
   */
  readonly maxListedTemporaryFiles?: number;
  /**
   * The bound of one owner's temporary area: its unexpired uploads and the upload links it holds
   * that are still valid, each name once (default 100 files, as memory storage). A batch of links
   * that would pass it is refused whole (`TemporaryStorageFull`, 429 on the route). Bytes
   * (`maxTemporaryBytesPerOwner`) are bounded exactly too, but a link can be used again until it
   * expires, so it holds the most its policy takes for its 15 minutes, however small the file sent
   * through it: the default, 100 × `maxUploadBytes`, lets every link take a whole file, and bytes are
   * bounded by files × file size; a smaller value (memory's 256 MiB) makes each new link take an
   * equal share of the bytes left (`temporary-area-bound.ts`). Each link leaves an empty marker
   * object in the owner's folder (one PUT per file), which the next batch's listing counts.
   */
  readonly maxTemporaryFilesPerOwner?: number;
  readonly maxTemporaryBytesPerOwner?: number;
  /** How long an upload counts against the bound (default 24 hours, as core judges uploads). */
  readonly temporaryFileTtlMs?: number;
};

/** S3 answers at most 1,000 keys per DeleteObjects call. */
const DELETE_BATCH_SIZE = 1000;

export const DEFAULT_TEMPORARY_PREFIX = 'tmp/';
/** The kit's default `maxDocumentBytes`. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const DEFAULT_PERMANENT_PREFIX = 'documents/';

const isNotFound = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
};

/**
 * The copy's source is no longer the upload that was checked: the key is gone (`NoSuchKey`; a
 * missing bucket is `NoSuchBucket`, an outage) or holds another upload (412 on `CopySourceIfMatch`).
 */
const isSourceGoneOrReplaced = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return name === 'NoSuchKey' || name === 'PreconditionFailed' || $metadata?.httpStatusCode === 412;
};

/** Thrown inside a copy whose source changed; gathered into `TemporaryFilesChanged`. */
class SourceChanged extends Error {
  constructor(readonly filename: string) {
    super(`The temporary file ${JSON.stringify(filename)} changed since it was checked`);
  }
}

export const createS3DocumentStorage = (options: S3DocumentStorageOptions): DocumentStorage => {
  const { client, bucket } = options;
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (!(Number.isSafeInteger(maxUploadBytes) && maxUploadBytes >= 1)) {
    throw new TypeError(`maxUploadBytes must be a whole number of bytes, at least 1: ${maxUploadBytes}`);
  }
  const maxListed = Math.max(1, Math.floor(options.maxListedTemporaryFiles ?? 10_000));
  const keys = s3ObjectKeys(
    options.temporaryPrefix ?? DEFAULT_TEMPORARY_PREFIX,
    options.permanentPrefix ?? DEFAULT_PERMANENT_PREFIX,
  );
  const concurrency = options.promotionConcurrency ?? 8;
  const bound: TemporaryAreaBound = {
    maxFiles: options.maxTemporaryFilesPerOwner ?? 100,
    // Every link whole (`maxUploadBytes`) up to the files' bound: see the option's comment.
    maxBytes:
      options.maxTemporaryBytesPerOwner ?? (options.maxTemporaryFilesPerOwner ?? 100) * maxUploadBytes,
    maxUploadBytes,
    fileTtlMs: options.temporaryFileTtlMs ?? 24 * 60 * 60_000,
  };
  for (const [name, value] of Object.entries(bound)) {
    if (!(Number.isSafeInteger(value) && value >= 1)) {
      throw new TypeError(`The temporary area's ${name} must be a whole number, at least 1: ${value}`);
    }
  }
  const now = options.now ?? (() => new Date());
  const unavailable = storageUnavailable('s3');
  const presigner = createObjectUrlPresigner(client, bucket);
  const attempt = <T>(work: () => Promise<T>): ResultAsync<T, StorageUnavailable> =>
    ResultAsync.fromPromise(
      // A synchronous throw of the SDK (bad input) must not escape either.
      Promise.resolve().then(work),
      unavailable,
    );

  /** Deletes exact object versions (`VersionId`), or current objects; per-key errors are failures. */
  const deleteBatches = async (
    objects: readonly { Key: string; VersionId?: string; ETag?: string }[],
  ): Promise<DeletedObject[]> => {
    const deleted: DeletedObject[] = [];
    for (let start = 0; start < objects.length; start += DELETE_BATCH_SIZE) {
      const output = await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          // Not quiet: on a versioned bucket each result says it only laid a delete marker.
          Delete: { Objects: objects.slice(start, start + DELETE_BATCH_SIZE), Quiet: false },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed: the failures are in the body. A
      // conditional delete whose object changed (PreconditionFailed) kept the newer upload: fine.
      const failure = output.Errors?.find((error) => error.Code !== 'PreconditionFailed');
      if (failure !== undefined) {
        throw new Error(`DeleteObjects failed for ${failure.Key}: ${failure.Code} ${failure.Message}`);
      }
      deleted.push(...(output.Deleted ?? []));
    }
    return deleted;
  };

  /**
   * Every version and delete marker of `key` (a versioned bucket keeps the bytes of a deleted or
   * replaced object as noncurrent versions), but its current version when `keepCurrent`.
   */
  const versionsOf = async (key: string, keepCurrent: boolean) => {
    const found: { Key: string; VersionId: string }[] = [];
    let markers: { KeyMarker?: string; VersionIdMarker?: string } = {};
    for (;;) {
      const page = await client.send(
        new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key, ...markers }),
      );
      for (const version of page.Versions ?? []) {
        if (version.Key !== key || version.VersionId === undefined) continue;
        if (!(keepCurrent && version.IsLatest)) found.push({ Key: key, VersionId: version.VersionId });
      }
      for (const marker of page.DeleteMarkers ?? []) {
        if (marker.Key === key && marker.VersionId !== undefined) {
          found.push({ Key: key, VersionId: marker.VersionId });
        }
      }
      if (!page.IsTruncated) return found;
      markers = {
        ...(page.NextKeyMarker === undefined ? {} : { KeyMarker: page.NextKeyMarker }),
        ...(page.NextVersionIdMarker === undefined ? {} : { VersionIdMarker: page.NextVersionIdMarker }),
      };
    }
  };

  /**
   * Deletes objects, each only at `etag` when one is given (a changed object is kept, not an error).
   * Where the bucket answers with a delete marker (versioning on or suspended), the key's versions
   * go too, and its delete markers: every one (`keepCurrent` false), or all but a current version,
   * a newer upload (`keepCurrent` true). An unversioned bucket costs no call more.
   */
  const deleteKeys = async (
    objects: readonly { key: string; etag?: string }[],
    keepCurrent: boolean,
  ): Promise<void> => {
    const unique = [...new Map(objects.map((object) => [object.key, object])).values()];
    const deleted = await deleteBatches(
      unique.map(({ key, etag }) => ({ Key: key, ...(etag ? { ETag: etag } : {}) })),
    );
    const versioned = [
      ...new Set(deleted.flatMap(({ Key, DeleteMarker }) => (DeleteMarker && Key ? [Key] : []))),
    ];
    if (versioned.length === 0) return;
    const listed = await settleBounded(versioned, concurrency, (key) =>
      ResultAsync.fromPromise(versionsOf(key, keepCurrent), (error) => error),
    );
    const versions = listed.flatMap(({ result }) => {
      if (result.isErr()) throw result.error;
      return result.value;
    });
    await deleteBatches(versions);
  };

  const existsPermanent = async (documentKey: string): Promise<boolean> => {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keys.permanent(documentKey) }));
      return true;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return false;
    }
  };

  const copyOne = async (item: PromotionItem): Promise<void> => {
    const output = await client
      .send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: keys.permanent(item.key),
          CopySource: copySourceOf(bucket, keys.temporary(item.owner, item.filename)),
          // Only the upload that was checked: a re-upload since (another ETag) is refused with 412.
          ...(item.version === '' ? {} : { CopySourceIfMatch: item.version }),
        }),
      )
      .catch((error: unknown) => {
        throw isSourceGoneOrReplaced(error) ? new SourceChanged(item.filename) : error;
      });
    // The SDK turns an error inside a 200 body into a thrown error; a result without an ETag is
    // still not a copy we can trust, whatever the server or SDK version.
    if (output.CopyObjectResult?.ETag === undefined) {
      throw new Error(`CopyObject of ${item.key} answered without a CopyObjectResult`);
    }
  };

  /**
   * The owner's files and link markers, at most `maxListed` keys (`complete` false beyond: an owner
   * that holds that many keys is refused, and the work of one batch stays bounded).
   */
  const listArea = async (owner: string): Promise<TemporaryAreaListing & { complete: boolean }> => {
    const files: TemporaryAreaListing['files'][number][] = [];
    const links: TemporaryAreaListing['links'][number][] = [];
    let seen = 0;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: keys.temporaryFolder(owner),
          MaxKeys: Math.min(1000, maxListed - seen),
          ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
        }),
      );
      for (const { Key, Size, LastModified } of page.Contents ?? []) {
        seen += 1;
        if (Key === undefined) continue;
        const filename = keys.filenameOf(owner, Key);
        const link = filename === null ? keys.uploadLinkOf(owner, Key) : null;
        if (filename !== null) {
          const uploadedAtMs = (LastModified ?? now()).getTime();
          files.push({ filenameDigest: filenameDigestOf(filename), size: Size ?? 0, uploadedAtMs });
        } else if (link !== null) links.push({ ...link, key: Key });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined && seen < maxListed);
    return { files, links, complete: ContinuationToken === undefined };
  };

  /**
   * Links for `filenames` within the owner's bound: count (one listing), mark each link (one empty
   * PUT each), count again and withdraw the marks if a batch racing on another process passed the
   * bound meanwhile (whichever of two racing batches counts last sees both), then sign.
   */
  const issueLinks = async (
    owner: string,
    filenames: readonly string[],
    expiresAt: Date,
  ): Promise<PresignedUpload[] | TemporaryStorageFull> => {
    const full = (retryAfterMs: number) => temporaryStorageFull(bound.maxFiles, bound.maxBytes, retryAfterMs);
    const digests = filenames.map(filenameDigestOf);
    const before = await listArea(owner);
    const room = roomForLinks(before, digests, bound, now().getTime());
    if (!room.fits) return full(room.retryAfterMs);
    if (!before.complete) return full(60_000);
    const marks = digests.map((filenameDigest) =>
      keys.uploadLink(owner, {
        filenameDigest,
        expiresAtMs: expiresAt.getTime(),
        maxBytes: room.maxBytesPerLink,
      }),
    );
    const withdraw = () =>
      deleteKeys(
        marks.map((key) => ({ key })),
        false,
      ).catch(() => undefined);
    const written = await settleBounded(marks, concurrency, (Key) =>
      ResultAsync.fromPromise(
        client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: new Uint8Array(0), ContentLength: 0 })),
        (e) => e,
      ),
    );
    const failed = written.find(({ result }) => result.isErr())?.result;
    if (failed?.isErr()) {
      await withdraw();
      throw failed.error;
    }
    const after = await listArea(owner);
    if (!(after.complete && withinBound(after, bound, now().getTime()))) {
      await withdraw();
      const { firstExpiryMs } = heldByName(after, bound, now().getTime());
      return full(Number.isFinite(firstExpiryMs) ? firstExpiryMs - now().getTime() : 60_000);
    }
    // Markers that count no more: expired, or outdone by a new link of the same name.
    const done = before.links.filter(
      (link) =>
        !marks.includes(link.key) &&
        (link.expiresAtMs <= now().getTime() ||
          (digests.includes(link.filenameDigest) &&
            link.expiresAtMs <= expiresAt.getTime() &&
            link.maxBytes <= room.maxBytesPerLink)),
    );
    if (done.length > 0) await deleteKeys(done, false).catch(() => undefined);
    return Promise.all(
      filenames.map(async (filename): Promise<PresignedUpload> => {
        const { url, fields } = await createPresignedPost(client, {
          Bucket: bucket,
          Key: keys.temporary(owner, filename),
          Conditions: [['content-length-range', 0, room.maxBytesPerLink]],
          // Whole seconds, rounded down: the policy ends at the asked time or before, never after.
          Expires: Math.floor((expiresAt.getTime() - Date.now()) / 1000),
        });
        return { url, method: 'POST', headers: {}, fields };
      }),
    );
  };

  return {
    // Always POSTs bounded by their policy: S3 refuses a file over the link's share of the bound.
    presignUploads: (owner, filenames, expiresAt) =>
      attempt(() => issueLinks(owner, filenames, expiresAt)).andThen((issued) =>
        Array.isArray(issued) ? okAsync(issued) : errAsync(issued),
      ),

    listTemporary: (owner) =>
      attempt(async () => {
        const files: TemporaryFile[] = [];
        const Prefix = keys.temporaryFolder(owner);
        let ContinuationToken: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix,
              MaxKeys: Math.min(1000, maxListed - files.length),
              ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
            }),
          );
          for (const object of page.Contents ?? []) {
            const filename = object.Key === undefined ? null : keys.filenameOf(owner, object.Key);
            if (filename === null) continue;
            files.push({
              filename,
              size: object.Size ?? 0,
              uploadedAt: object.LastModified ?? now(),
              version: object.ETag ?? '',
            });
          }
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken !== undefined && files.length < maxListed);
        files.length = Math.min(files.length, maxListed);
        return files;
      }),

    statTemporary: (owner, filename) =>
      attempt(async (): Promise<TemporaryFile | null> => {
        try {
          const head = await client.send(
            new HeadObjectCommand({ Bucket: bucket, Key: keys.temporary(owner, filename) }),
          );
          return {
            filename,
            size: head.ContentLength ?? 0,
            uploadedAt: head.LastModified ?? now(),
            version: head.ETag ?? '',
          };
        } catch (error) {
          if (!isNotFound(error)) throw error;
          // A HEAD 404 has no body, so a missing bucket looks like a missing file: ask the bucket,
          // so that a misconfigured bucket is an outage rather than "file not uploaded".
          await client.send(new HeadBucketCommand({ Bucket: bucket }));
          return null;
        }
      }),

    copyToPermanent: (items) =>
      ResultAsync.fromPromise(
        (async () => {
          const settled = await settleBounded(items, concurrency, (item) =>
            ResultAsync.fromPromise(copyOne(item), (error) => error),
          );
          const failures = settled.flatMap(({ result }) => (result.isErr() ? [result.error] : []));
          if (failures.length === 0) return;
          // Leave no half-promotion behind: the caller sees a failure and owns no copy to clean.
          const copied = settled.flatMap(({ item, result }) =>
            result.isOk() ? [{ key: keys.permanent(item.key) }] : [],
          );
          await deleteKeys(copied, false).catch(() => undefined);
          throw failures.find((error) => !(error instanceof SourceChanged)) ?? failures;
        })(),
        (error): StorageUnavailable | TemporaryFilesChanged =>
          Array.isArray(error)
            ? temporaryFilesChanged(error.map((changed: SourceChanged) => changed.filename))
            : unavailable(error),
      ),

    // Each delete names the ETag used (S3 conditional delete): a re-upload since is kept, as its
    // current version on a versioned bucket (the older ones are of no use to the kit any more).
    deleteTemporary: (owner, used) =>
      attempt(() =>
        deleteKeys(
          used.map(({ filename, version }) => ({ key: keys.temporary(owner, filename), etag: version })),
          true,
        ),
      ),

    listPermanent: (after, limit) =>
      attempt(async () => {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: keys.permanentFolder,
            MaxKeys: Math.min(1000, Math.max(1, Math.floor(limit))),
            ...(after === null ? {} : { ContinuationToken: after }),
          }),
        );
        const documents = (page.Contents ?? []).flatMap((object) => {
          const key = object.Key === undefined ? null : keys.documentKeyOf(object.Key);
          return key === null ? [] : [{ key, storedAt: object.LastModified ?? now() }];
        });
        return { documents, next: page.IsTruncated ? (page.NextContinuationToken ?? null) : null };
      }),

    // One HEAD per key, a few at once: a download batch names at most 50 keys, and a presigned GET
    // cannot tell whether its object exists.
    missingPermanent: (documentKeys) =>
      attempt(async () => {
        const settled = await settleBounded(documentKeys, concurrency, (documentKey) =>
          ResultAsync.fromPromise(existsPermanent(documentKey), (error) => error),
        );
        const missing: string[] = [];
        for (const { item, result } of settled) {
          if (result.isErr()) throw result.error;
          if (!result.value) missing.push(item);
        }
        // A HEAD 404 has no body, so a missing bucket looks like missing objects: ask the bucket,
        // so that a misconfigured bucket is an outage rather than "document not found".
        if (missing.length > 0) await client.send(new HeadBucketCommand({ Bucket: bucket }));
        return missing;
      }),

    // Every version: redaction's erasure and the removal of a failed command's copies leave no bytes.
    deletePermanent: (documentKeys) =>
      attempt(() =>
        deleteKeys(
          documentKeys.map((documentKey) => ({ key: keys.permanent(documentKey) })),
          false,
        ),
      ),

    presignDownload: (key, filename, expiresAt) =>
      attempt(() =>
        presigner.presign('GET', keys.permanent(key), presignWindow(now(), expiresAt), {
          'response-content-disposition': attachmentContentDisposition(filename),
          // Bytes to save, whatever type the object was stored with: an uploader that set one
          // (`text/html`, on a store that does not hold a POST to its policy) names none here.
          'response-content-type': 'application/octet-stream',
        }),
      ),
  };
};
