import type { ChangedListTarget } from '@onboarding-kit/core/adapter';
import type { SanctionsList } from './sanctions-list.js';
import type { ListTarget } from './targets-csv.js';

const namesOf = (target: ListTarget): string[] => [...new Set([target.name, ...target.aliases])];

const sameValues = (a: readonly string[], b: readonly string[]): boolean => {
  const before = new Set(a);
  const after = [...new Set(b)];
  return after.length === before.size && after.every((value) => before.has(value));
};

/**
 * Whether a target reads the same to the matcher: its names, its schema, and the evidence that
 * lowers a name's score (its countries and birth dates: a corrected birth year can make a hit).
 */
const sameForScreening = (a: ListTarget, b: ListTarget): boolean =>
  a.schema === b.schema &&
  sameValues(namesOf(a), namesOf(b)) &&
  sameValues(a.countries, b.countries) &&
  sameValues(a.birthDates, b.birthDates);

/**
 * What a new version of a list changed for screening, as `kit.screening.listChanged` takes it: the
 * persons and organizations it added, and those whose names or aliases (or schema), countries or
 * birth dates changed (the last two weigh in the score: a birth year corrected to the client's
 * lifts a name lowered by the old one), each with its names in the new version. Targets removed, or
 * changed only in other data (datasets), cannot make a new hit and are left out. Without a previous version, every target is
 * a change (the first list a host monitors).
 */
export const listVersionChanges = (
  previous: SanctionsList | null,
  next: SanctionsList,
): ChangedListTarget[] => {
  const before = new Map<string, ListTarget>();
  if (previous !== null) for (const target of previous.targets()) before.set(target.id, target);
  const changed: ChangedListTarget[] = [];
  for (const target of next.targets()) {
    const known = before.get(target.id);
    if (known === undefined || !sameForScreening(known, target))
      changed.push({ id: target.id, names: namesOf(target) });
  }
  return changed;
};
