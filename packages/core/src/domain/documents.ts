/** A document promoted to permanent storage, indexed by its key `<uuid>_<filename>`. */
export type DocumentRecord = {
  readonly key: string;
  readonly clientId: string;
  readonly managerId: string;
  /** The name it was uploaded under: downloads are attachments with this name. */
  readonly filename: string;
  readonly size: number;
  readonly storedAt: string;
  /** The upload it was made from (`uploadNameOf`): at most one document per upload. */
  readonly upload?: string;
};

/** A file in a caller's temporary storage, as the storage reports it. */
export type TemporaryFile = {
  readonly filename: string;
  readonly size: number;
  readonly uploadedAt: Date;
  /**
   * Names this upload of the file (S3: its ETag; memory: an id per upload). A re-upload under the
   * same name has another version, so a promotion copies and deletes exactly the file it checked.
   */
  readonly version: string;
};

/**
 * The name of one upload of a temporary file, which claims and document rows carry: a SHA-256 of
 * the owner, the filename, the storage's version and the upload time (a digest, so the index holds
 * no filename beyond the document's own). The upload time tells apart two uploads of the same bytes
 * (S3 gives them one ETag), so a file uploaded again can be used again.
 */
export const uploadNameOf = (
  hashing: { sha256Hex(text: string): string },
  owner: string,
  file: TemporaryFile,
): string =>
  hashing.sha256Hex(JSON.stringify([owner, file.filename, file.version, file.uploadedAt.toISOString()]));

/** A document key: a random UUID v4, an underscore, the original filename. */
export const documentKeyFor = (uuid: string, filename: string): string => `${uuid}_${filename}`;
