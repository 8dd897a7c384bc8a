import type { ResultAsync } from 'neverthrow';
import type { DocumentRecord } from '../domain/documents.js';
import type { StorageUnavailable } from '../errors.js';

/** Which client each permanent document belongs to: the guard of every download. */
export interface DocumentIndex {
  insertMany(documents: readonly DocumentRecord[]): ResultAsync<void, StorageUnavailable>;
  /** The documents among `keys` that belong to a client of `managerId` (others are left out). */
  findByKeys(managerId: string, keys: readonly string[]): ResultAsync<DocumentRecord[], StorageUnavailable>;
  /** The keys among `keys` that have an index row, whoever owns them (the orphan sweep's check). */
  findIndexedKeys(keys: readonly string[]): ResultAsync<string[], StorageUnavailable>;
}
