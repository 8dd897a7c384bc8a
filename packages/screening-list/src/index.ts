// --- Loading and matching a sanctions list ------------------------------------------------------
export {
  createListScreeningProvider,
  type ListScreeningProviderOptions,
} from './list-screening-provider.js';

export { createLiveSanctionsList, type LiveSanctionsList } from './live-sanctions-list.js';

// --- What a new list version changed (monitoring) -----------------------------------------------
export { listNameKeys } from './list-name-keys.js';
export { listVersionChanges } from './list-version-changes.js';

// --- The pieces: the CSV reader and the name normalization --------------------------------------
export { nameTokens, nameWords, normalizeName } from './normalize-name.js';
export {
  DEFAULT_MATCH_THRESHOLD,
  type ListMatch,
  loadSanctionsList,
  type SanctionsList,
  type ScreenedName,
} from './sanctions-list.js';
export { type ListTarget, readTargetsCsv, type SanctionsListUnreadable } from './targets-csv.js';
