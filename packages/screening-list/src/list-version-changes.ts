import type { ChangedListTarget } from '@onboarding-kit/core/adapter';
import type { SanctionsList } from './sanctions-list.js';
import type { ListTarget } from './targets-csv.js';

const namesOf = (target: ListTarget): string[] => [...new Set([target.name, ...target.aliases])];

const sameNames = (a: ListTarget, b: ListTarget): boolean => {
  const before = new Set(namesOf(a));
  const after = namesOf(b);
  return a.schema === b.schema && after.length === before.size && after.every((name) => before.has(name));
};

/**
 * What a new version of a list changed for screening, as `kit.screening.listChanged` takes it: the
 * persons and organizations it added, and those whose names or aliases (or schema) changed, each
 * with its names in the new version. Targets removed, or changed only in other data (datasets,
 * countries), cannot make a new hit and are left out. Without a previous version, every target is
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
    if (known === undefined || !sameNames(known, target))
      changed.push({ id: target.id, names: namesOf(target) });
  }
  return changed;
};
