import type { ResultAsync } from 'neverthrow';

/** A name of the client to screen, and the JSON path of the payload field it came from. */
export type ScreeningSubject = {
  readonly field: string;
  readonly name: string;
  /** A person (profile, representative, director, natural UBO) or a company (the entity, a legal UBO). */
  readonly kind: 'PERSON' | 'COMPANY';
};

/** A subject that resembles a listed name. */
export type ScreeningMatch = {
  /** The subject's `field`, as it was given. */
  readonly field: string;
  readonly name: string;
  readonly listName: string;
  readonly matchedName: string;
  /** How alike the names are, from 0 to 1. */
  readonly score: number;
};

/** The provider could not screen now (a list not loaded, a remote service down): the job retries. */
export type ScreeningUnavailable = { readonly type: 'ScreeningUnavailable'; readonly cause: unknown };
export const screeningUnavailable = (cause: unknown): ScreeningUnavailable => ({
  type: 'ScreeningUnavailable',
  cause,
});

/**
 * Screens names against sanctions or PEP lists (decisions §12). The kit calls it from the job
 * engine, never in a request. Never throws: a failure is `ScreeningUnavailable`.
 */
export interface ScreeningProvider {
  screen(subjects: readonly ScreeningSubject[]): ResultAsync<ScreeningMatch[], ScreeningUnavailable>;
}
