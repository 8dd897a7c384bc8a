import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { ScreeningSubject } from './screening-provider.js';

/** A name of a client as it was last screened, with its keys (`screeningNameKeys`). */
export type IndexedScreeningName = ScreeningSubject & { readonly keys: readonly string[] };

/** A screened name that shares a key with a changed list target. */
export type ScreenedNameCandidate = IndexedScreeningName & { readonly clientId: string };

/** Where a page of candidates starts: after this client's name of this field. */
export type ScreenedNameCursor = { readonly clientId: string; readonly field: string };

export type ScreenedNameQuery = {
  /** Candidates share at least one of these keys. */
  readonly keys: readonly string[];
  readonly after?: ScreenedNameCursor;
  /** How many names to answer at most. */
  readonly limit: number;
};

/**
 * The kit's index of the names it screened, one row per client name (monitoring, decisions §12):
 * what a new list version's changed targets are matched against, so that the cost follows the
 * change, not the client base. Written with the screening it indexes, emptied by redaction.
 */
export interface ScreenedNameIndex {
  /** Makes `names` the client's indexed names (none: the client leaves the index). */
  replace(clientId: string, names: readonly IndexedScreeningName[]): ResultAsync<void, StorageUnavailable>;
  /**
   * The names sharing a key with `keys`, ordered by client id and field, after `after`: a run
   * pages through them `limit` at a time.
   */
  candidates(query: ScreenedNameQuery): ResultAsync<ScreenedNameCandidate[], StorageUnavailable>;
}
