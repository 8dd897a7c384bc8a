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
};

/** A document key: a random UUID v4, an underscore, the original filename. */
export const documentKeyFor = (uuid: string, filename: string): string => `${uuid}_${filename}`;
