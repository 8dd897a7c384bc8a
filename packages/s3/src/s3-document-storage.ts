import {
  CopyObjectCommand,
  type DeletedObject,
  DeleteObjectsCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
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
  temporaryFilesChanged,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';

import { createObjectUrlPresigner } from './object-url-presigner.js';
import { presignWindow } from './presign-window.js';
import { copySourceOf, s3ObjectKeys } from './s3-object-keys.js';

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

  return {
    // Always a POST bounded by its policy: S3 refuses a file over `maxUploadBytes`.
    presignUpload: (owner, filename, expiresAt) =>
      attempt(async (): Promise<PresignedUpload> => {
        const { url, fields } = await createPresignedPost(client, {
          Bucket: bucket,
          Key: keys.temporary(owner, filename),
          Conditions: [['content-length-range', 0, maxUploadBytes]],
          // Whole seconds, rounded down: the policy ends at the asked time or before, never after.
          Expires: Math.floor((expiresAt.getTime() - Date.now()) / 1000),
        });
        return { url, method: 'POST', headers: {}, fields };
      }),

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
