import { setImmediate } from 'node:timers';
import type {
  ScreeningCountryEvidence,
  ScreeningExplanation,
  ScreeningMatch,
  ScreeningProvider,
  ScreeningSubject,
} from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { nameTokens, normalizeName } from './normalize-name.js';
import {
  DEFAULT_MATCH_THRESHOLD,
  type ListMatch,
  type SanctionsList,
  type ScreenedName,
} from './sanctions-list.js';

export type ListScreeningProviderOptions = {
  /**
   * A list loaded once (`loadSanctionsList`), shared by every screening; or the list in use now,
   * asked at every screening, for a host that loads each new version and then tells the kit what
   * changed (`listVersionChanges`, `kit.screening.listChanged`).
   */
  readonly list: SanctionsList | (() => SanctionsList);
  /** 0..100, the list's score from which a name is a hit (default `DEFAULT_MATCH_THRESHOLD`, 90). */
  readonly threshold?: number;
};

const kindOf: Record<ScreeningSubject['kind'], ScreenedName['kind']> = {
  PERSON: 'person',
  COMPANY: 'organization',
};

/** The client's country beside the entry's: evidence the reviewer sees. */
const countryEvidence = (country: string, listed: readonly string[]): ScreeningCountryEvidence => ({
  subject: country,
  listed,
  outcome:
    listed.length === 0
      ? 'UNKNOWN'
      : listed.some((code) => code.toLowerCase() === country.toLowerCase())
        ? 'MATCH'
        : 'MISMATCH',
});

/** What the score compared: the words the names share, and those only one of them has. */
const explanationOf = (subject: ScreeningSubject, match: ListMatch): ScreeningExplanation => {
  const screened = nameTokens(normalizeName(subject.name));
  const listed = nameTokens(normalizeName(match.matchedName));
  const shared = screened.filter((token) => listed.includes(token));
  return {
    summary: `The names' words, sorted, are ${match.score}% alike (fuzzball token_sort_ratio); ${shared.length} of ${screened.length} word(s) are the same.`,
    tokens: shared.map((token) => ({
      subject: token,
      listed: token,
      kind: 'EXACT',
      similarity: 1,
      weight: 1 / Math.max(screened.length, listed.length),
    })),
    unmatchedSubject: screened.filter((token) => !listed.includes(token)),
    unmatchedListed: listed.filter((token) => !screened.includes(token)),
    ...(subject.country === undefined
      ? {}
      : { country: countryEvidence(subject.country, match.target.countries) }),
  };
};

/** Lets the event loop run (the host's requests, timers, I/O) before the next subject is matched. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The kit's `ScreeningProvider` over a sanctions list in memory: each subject is matched against
 * the list's persons or organizations, and every listed target scoring at or above `threshold` is
 * one match (its score on the port's 0..1 scale). A list in memory cannot be unreachable: it never
 * fails. Matching is synchronous work in the host's process (a few milliseconds a name against
 * 100,000 targets), so the subjects are matched one at a time, each in a turn of the event loop of
 * its own: a client's screening never holds the process for all of its names at once. With a
 * scope (monitoring asks about the targets a new version changed), a subject is scored against the
 * names of those targets only.
 */
export const createListScreeningProvider = ({
  list,
  threshold = DEFAULT_MATCH_THRESHOLD,
}: ListScreeningProviderOptions): ScreeningProvider => ({
  screen: (subjects, scope) =>
    ResultAsync.fromSafePromise(
      (async () => {
        const matches: ScreeningMatch[] = [];
        for (const subject of subjects) {
          await nextTurn();
          const current = typeof list === 'function' ? list() : list;
          for (const match of current.match(
            { kind: kindOf[subject.kind], name: subject.name },
            threshold,
            scope?.targetIds,
          )) {
            matches.push({
              field: subject.field,
              name: subject.name,
              listName: match.listName,
              matchedName: match.matchedName,
              score: match.score / 100,
              targetId: match.targetId,
              explanation: explanationOf(subject, match),
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
