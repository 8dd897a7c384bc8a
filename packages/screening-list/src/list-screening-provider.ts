import type { ScreeningMatch, ScreeningProvider, ScreeningSubject } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { DEFAULT_MATCH_THRESHOLD, type SanctionsList, type ScreenedName } from './sanctions-list.js';

export type ListScreeningProviderOptions = {
  /** A list loaded once (`loadSanctionsList`), shared by every screening. */
  readonly list: SanctionsList;
  /** 0..100, the list's score from which a name is a hit (default `DEFAULT_MATCH_THRESHOLD`, 90). */
  readonly threshold?: number;
};

const kindOf: Record<ScreeningSubject['kind'], ScreenedName['kind']> = {
  PERSON: 'person',
  COMPANY: 'organization',
};

/**
 * The kit's `ScreeningProvider` over a sanctions list in memory: each subject is matched against
 * the list's persons or organizations, and every listed target scoring at or above `threshold` is
 * one match (its score on the port's 0..1 scale). A list in memory cannot be unreachable: it never
 * fails.
 */
export const createListScreeningProvider = ({
  list,
  threshold = DEFAULT_MATCH_THRESHOLD,
}: ListScreeningProviderOptions): ScreeningProvider => ({
  screen: (subjects) =>
    okAsync(
      subjects.flatMap((subject) =>
        list.match({ kind: kindOf[subject.kind], name: subject.name }, threshold).map(
          (match): ScreeningMatch => ({
            field: subject.field,
            name: subject.name,
            listName: match.listName,
            matchedName: match.matchedName,
            score: match.score / 100,
          }),
        ),
      ),
    ),
});
