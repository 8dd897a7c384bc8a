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
  readonly permanent: (documentKey: string) => string;
  readonly permanentFolder: string;
  /** The document key of a key listed under `permanentFolder`, or null for a foreign key. */
  readonly documentKeyOf: (key: string) => string | null;
};

const encodeSegment = (value: string): string => encodeURIComponent(value);

const decodeSegment = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

export const s3ObjectKeys = (temporaryPrefix: string, permanentPrefix: string): S3ObjectKeys => {
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
