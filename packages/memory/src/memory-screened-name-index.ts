import type { ScreenedNameCandidate, ScreenedNameIndex } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Orders candidates by client id, then field (the index's paging order). */
const byClientAndField = (a: ScreenedNameCandidate, b: { clientId: string; field: string }) =>
  byText(a.clientId, b.clientId) || byText(a.field, b.field);

/** The index of screened names in memory: a client's names are one row; a lookup scans them. */
export const createMemoryScreenedNameIndex = (access: TableAccess): ScreenedNameIndex => ({
  replace: (clientId, names) =>
    access.write((tables) => {
      tables.screenedNames.set(clientId, frozenClone({ clientId, names }));
      return ok(undefined);
    }),
  candidates: ({ keys, after, limit }) =>
    access.read((tables) => {
      const wanted = new Set(keys);
      return [...tables.screenedNames.values()]
        .flatMap(({ clientId, names }) => names.map((name) => ({ ...name, clientId })))
        .filter(
          (candidate) =>
            candidate.keys.some((key) => wanted.has(key)) &&
            (after === undefined || byClientAndField(candidate, after) > 0),
        )
        .sort(byClientAndField)
        .slice(0, limit);
    }),
});
