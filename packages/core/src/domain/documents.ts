/** A document promoted to permanent storage, indexed by its key `<uuid>_<filename>`. */
export type DocumentRecord = {
  readonly key: string;
  readonly clientId: string;
  readonly managerId: string;
  /** The name it was uploaded under: downloads are attachments with this name. */
  readonly filename: string;
  readonly size: number;
  readonly storedAt: string;
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

/** A document key: a random UUID v4, an underscore, the original filename. */
export const documentKeyFor = (uuid: string, filename: string): string => `${uuid}_${filename}`;
