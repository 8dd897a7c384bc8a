import { setImmediate } from 'node:timers';
import type { ScreeningMatch, ScreeningProvider, ScreeningSubject } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { listNameKeys } from './list-name-keys.js';
import type { LiveSanctionsList } from './live-sanctions-list.js';
import { DEFAULT_MATCH_THRESHOLD, type SanctionsList, type ScreenedName } from './sanctions-list.js';

export type ListScreeningProviderOptions = {
  /**
   * A list loaded once (`loadSanctionsList`), shared by every screening; a live one
   * (`createLiveSanctionsList`) the host reloads while it serves; or the list in use now, asked at
   * every screening (a host that loads each new version itself, then tells the kit what changed:
   * `listVersionChanges`, `kit.screening.listChanged`). A screening reads the version in use when
   * it starts for all of the client's names.
   */
  readonly list: SanctionsList | LiveSanctionsList | (() => SanctionsList);
  /** 0..100, the list's score from which a name is a hit (default `DEFAULT_MATCH_THRESHOLD`, 80). */
  readonly threshold?: number;
};

/** The list's kinds a subject is matched against: a name that may be either, against both. */
const kindsOf: Record<ScreeningSubject['kind'], readonly ScreenedName['kind'][]> = {
  PERSON: ['person'],
  COMPANY: ['organization'],
  PERSON_OR_COMPANY: ['person', 'organization'],
};

/** Lets the event loop run (the host's requests, timers, I/O) before the next subject is matched. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The kit's `ScreeningProvider` over a sanctions list in memory: each subject is matched against
 * the list's persons or organizations (both for a subject that may be either), and every listed target scoring at or above `threshold` is
 * one match (its score on the port's 0..1 scale). A list in memory cannot be unreachable: it never
 * fails. Matching is synchronous work in the host's process (a few milliseconds a name against
 * 100,000 targets), so the subjects are matched one at a time, each in a turn of the event loop of
 * its own: a client's screening never holds the process for all of its names at once. With a
 * scope (monitoring asks about the targets a new version changed), a subject is scored against the
 * names of those targets only. Its index keys for monitoring are `listNameKeys`.
 */
export const createListScreeningProvider = ({
  list,
  threshold = DEFAULT_MATCH_THRESHOLD,
}: ListScreeningProviderOptions): ScreeningProvider => ({
  nameKeys: listNameKeys,
  screen: (subjects, scope) =>
    ResultAsync.fromSafePromise(
      (async () => {
        const matches: ScreeningMatch[] = [];
        const version = typeof list === 'function' ? list() : 'current' in list ? list.current() : list;
        for (const subject of subjects) {
          await nextTurn();
          const found = kindsOf[subject.kind].flatMap((kind) =>
            version.match(
              {
                kind,
                name: subject.name,
                ...(subject.country === undefined ? {} : { country: subject.country }),
                ...(subject.birthDate === undefined ? {} : { birthDate: subject.birthDate }),
              },
              threshold,
              scope?.targetIds,
            ),
          );
          for (const match of found) {
            matches.push({
              field: subject.field,
              name: subject.name,
              listName: match.listName,
              matchedName: match.matchedName,
              score: match.score / 100,
              targetId: match.targetId,
              explanation: match.explanation,
              entry: {
                name: match.target.name,
                aliases: match.target.aliases,
                datasets: match.target.datasets,
                countries: match.target.countries,
                birthDates: match.target.birthDates,
                schema: match.target.schema,
              },
            });
          }
        }
        return matches;
      })(),
    ),
});
