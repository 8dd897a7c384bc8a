import type { ResultAsync } from 'neverthrow';
import type { ScreeningMatch, ScreeningSubject } from '../domain/screening-match.js';

export type {
  ScreeningBirthDateEvidence,
  ScreeningCountryEvidence,
  ScreeningExplanation,
  ScreeningListEntry,
  ScreeningMatch,
  ScreeningSubject,
  ScreeningTokenMatch,
} from '../domain/screening-match.js';

/** The provider could not screen now (a list not loaded, a remote service down): the job retries. */
export type ScreeningUnavailable = { readonly type: 'ScreeningUnavailable'; readonly cause: unknown };
export const screeningUnavailable = (cause: unknown): ScreeningUnavailable => ({
  type: 'ScreeningUnavailable',
  cause,
});

/**
 * Which listed targets a screening asks about: monitoring asks about the targets a new list version
 * changed. A provider that cannot narrow its search screens against its whole list; the kit keeps
 * only the matches of these targets either way.
 */
export type ScreeningScope = { readonly targetIds: readonly string[] };

/**
 * Screens names against sanctions or PEP lists (decisions §12). The kit calls it from the job
 * engine, never in a request. Never throws: a failure is `ScreeningUnavailable`.
 */
export interface ScreeningProvider {
  screen(
    subjects: readonly ScreeningSubject[],
    scope?: ScreeningScope,
  ): ResultAsync<ScreeningMatch[], ScreeningUnavailable>;
  /**
   * The keys under which the kit indexes a screened name for monitoring, and under which a changed
   * target's names look up their candidates (decisions §12): two names this provider could call
   * alike must share one. A provider that normalizes names its own way (transliteration) gives
   * keys made from its normalized words (`screeningKeysOfWords`); without it, the kit's own
   * (`screeningNameKeys`). Keys that change (a provider replaced or upgraded) call for
   * `kit.screening.reindexScreenedNames()`.
   */
  nameKeys?(name: string): readonly string[];
}
