import { okAsync, type ResultAsync } from 'neverthrow';
import { loadSanctionsList, type SanctionsList } from './sanctions-list.js';
import type { SanctionsListUnreadable } from './targets-csv.js';

/** A sanctions list the host can replace while it serves: every call reads the version in use. */
export type LiveSanctionsList = SanctionsList & {
  /** The version in use now: a screening reads one version for all of a client's names. */
  current(): SanctionsList;
  /**
   * Loads a new version from `input` in the background (the version in use keeps serving), then
   * swaps it in at once. A file that cannot be read leaves the version in use (`Err`). When two
   * reloads overlap, the one started last wins: an older file finishing later never replaces it.
   */
  reload(input: AsyncIterable<string | Uint8Array>): ResultAsync<SanctionsList, SanctionsListUnreadable>;
};

/** A list that can be reloaded while the host serves, starting with `initial` (`loadSanctionsList`). */
export const createLiveSanctionsList = (initial: SanctionsList): LiveSanctionsList => {
  let inUse = initial;
  let started = 0;
  let installed = 0;
  return {
    get size() {
      return inUse.size;
    },
    match: (screened, threshold) => inUse.match(screened, threshold),
    targets: () => inUse.targets(),
    current: () => inUse,
    reload: (input) => {
      started += 1;
      const generation = started;
      return loadSanctionsList(input).andThen((loaded) => {
        if (generation > installed) {
          inUse = loaded;
          installed = generation;
        }
        return okAsync(loaded);
      });
    },
  };
};
