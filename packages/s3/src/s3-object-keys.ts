import { createHash } from 'node:crypto';

/**
 * Where each file lives in the bucket. Owners (`manager:<uuid>`) and filenames (any UTF-8 but `/`)
 * are percent-encoded into one path segment each, so a key is plain ASCII, never ambiguous (a
 * filename cannot escape its owner's folder) and decodes back to the exact original name. A 255-byte
 * filename encodes to at most 765 characters: keys stay under S3's 1,024-byte limit.
 */
export type S3ObjectKeys = {
  readonly temporaryFolder: (owner: string) => string;
  readonly temporary: (owner: string, filename: string) => string;
  /** The filename of a key listed under `temporaryFolder(owner)`, or null for a foreign key. */
  readonly filenameOf: (owner: string, key: string) => string | null;
  /**
   * The marker of an upload link (`<owner folder>upload-links/<expiry ms>.<the most bytes it
   * takes>.<SHA-256 hex of the filename>`): empty, in the owner's folder so that one listing counts
   * files and links, under the temporary prefix so that the lifecycle rule removes it with the
   * uploads, and naming the file by a digest, so that no file name outlives its upload in a marker.
   * It has a `/` after the owner's folder, so it is never read as a file.
   */
  readonly uploadLink: (owner: string, link: UploadLinkMarker) => string;
  /** The link marker of a key listed under `temporaryFolder(owner)`, or null for another key. */
  readonly uploadLinkOf: (owner: string, key: string) => UploadLinkMarker | null;
  readonly permanent: (documentKey: string) => string;
  readonly permanentFolder: string;
  /** The document key of a key listed under `permanentFolder`, or null for a foreign key. */
  readonly documentKeyOf: (key: string) => string | null;
};

/** An upload link as its marker records it: its file (`filenameDigest`), until when, at most how many bytes. */
export type UploadLinkMarker = {
  readonly filenameDigest: string;
  readonly expiresAtMs: number;
  readonly maxBytes: number;
};

const UPLOAD_LINKS_FOLDER = 'upload-links/';

/** How a marker names its file: SHA-256 hex of the filename's UTF-8. */
export const filenameDigestOf = (filename: string): string =>
  createHash('sha256').update(filename, 'utf8').digest('hex');

const encodeSegment = (value: string): string => encodeURIComponent(value);

const decodeSegment = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * Throws a TypeError unless the two prefixes are two separate folders: each non-empty and ending in
 * `/`, neither inside the other. The temporary folder's lifecycle rule expires everything under it
 * (`ensureTemporaryExpiry`), so a permanent folder inside it, sharing it, or merely starting with the
 * same letters (`tmp` and `tmp-documents/`) would have its documents deleted after a day; an empty
 * temporary prefix would expire the whole bucket. A configuration error, found when the storage is
 * built, not at the first upload.
 */
export const checkS3Prefixes = (temporaryPrefix: string, permanentPrefix: string): void => {
  for (const [name, prefix] of [
    ['temporaryPrefix', temporaryPrefix],
    ['permanentPrefix', permanentPrefix],
  ] as const) {
    if (typeof prefix !== 'string' || prefix.length === 0 || !prefix.endsWith('/')) {
      throw new TypeError(
        `${name} must be a folder: non-empty and ending in "/", not ${JSON.stringify(prefix)}`,
      );
    }
  }
  if (temporaryPrefix.startsWith(permanentPrefix) || permanentPrefix.startsWith(temporaryPrefix)) {
    throw new TypeError(
      `temporaryPrefix ${JSON.stringify(temporaryPrefix)} and permanentPrefix ${JSON.stringify(permanentPrefix)} must be separate folders, neither inside the other (uploads expire after a day)`,
    );
  }
};

/** The layout of a bucket; throws a TypeError when the prefixes are not two separate folders (`checkS3Prefixes`). */
export const s3ObjectKeys = (temporaryPrefix: string, permanentPrefix: string): S3ObjectKeys => {
  checkS3Prefixes(temporaryPrefix, permanentPrefix);
  const temporaryFolder = (owner: string): string => `${temporaryPrefix}${encodeSegment(owner)}/`;
  return {
    temporaryFolder,
    temporary: (owner, filename) => `${temporaryFolder(owner)}${encodeSegment(filename)}`,
    filenameOf: (owner, key) => {
      const folder = temporaryFolder(owner);
      if (!key.startsWith(folder)) return null;
      const segment = key.slice(folder.length);
      if (segment.length === 0 || segment.includes('/')) return null;
      const filename = decodeSegment(segment);
      // Only keys this layout wrote (canonical encoding) are files of the owner.
      return filename !== null && encodeSegment(filename) === segment ? filename : null;
    },
    uploadLink: (owner, { filenameDigest, expiresAtMs, maxBytes }) =>
      `${temporaryFolder(owner)}${UPLOAD_LINKS_FOLDER}${expiresAtMs}.${maxBytes}.${filenameDigest}`,
    uploadLinkOf: (owner, key) => {
      const folder = `${temporaryFolder(owner)}${UPLOAD_LINKS_FOLDER}`;
      if (!key.startsWith(folder)) return null;
      const parts = /^(\d{1,15})\.(\d{1,15})\.([0-9a-f]{64})$/.exec(key.slice(folder.length));
      if (parts?.[3] === undefined) return null;
      return { filenameDigest: parts[3], expiresAtMs: Number(parts[1]), maxBytes: Number(parts[2]) };
    },
    permanent: (documentKey) => `${permanentPrefix}${encodeSegment(documentKey)}`,
    permanentFolder: permanentPrefix,
    documentKeyOf: (key) => {
      if (!key.startsWith(permanentPrefix)) return null;
      const segment = key.slice(permanentPrefix.length);
      if (segment.length === 0 || segment.includes('/')) return null;
      const documentKey = decodeSegment(segment);
      return documentKey !== null && encodeSegment(documentKey) === segment ? documentKey : null;
    },
  };
};

/** The `x-amz-copy-source` value: bucket and key, URL-encoded once more as S3 requires. */
export const copySourceOf = (bucket: string, key: string): string =>
  `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
