/**
 * What screening works on and finds: the names of a client to screen, and the listed entries they
 * resemble, with why. The screening provider port (`ports/screening-provider.ts`) takes and answers these.
 */

/** A name of the client to screen, and the JSON path of the payload field it came from. */
export type ScreeningSubject = {
  readonly field: string;
  readonly name: string;
  /**
   * A person (profile, representative, director, natural UBO), a company (the entity, a legal UBO,
   * an individual's employer), or either when the payload does not say which (a third-party bank
   * account's owner): a provider then matches the name against both.
   */
  readonly kind: 'PERSON' | 'COMPANY' | 'PERSON_OR_COMPANY';
  /**
   * The client's country (ISO 3166-1 alpha-2) when the payload gives one: evidence, never a filter.
   * A provider may lower the score of a listed entry of other countries, but never hides an exact
   * name match for it.
   */
  readonly country?: string;
  /**
   * The person's birth date (ISO 8601, `1961-04-12`) when the payload gives one: evidence, never a
   * filter, as the country. A provider may lower the score of a listed entry born in another year,
   * but never hides an exact name match for it.
   */
  readonly birthDate?: string;
};

/** How one word of the screened name was paired with one of the listed name. */
export type ScreeningTokenMatch = {
  /** The screened name's word(s), normalized (two when they were joined on the list: `vladimir putin`). */
  readonly subject: string;
  /** The listed name's word(s), normalized. */
  readonly listed: string;
  /**
   * Why they pair: the same word, the same after transliteration or by sound (`muhammad` /
   * `mohammed`), a spelling variant, an initial (`j` / `john`), words joined or split
   * (`vladimirputin`), or one company legal form (`ltd` / `limited`).
   */
  readonly kind: 'EXACT' | 'PHONETIC' | 'SPELLING' | 'INITIAL' | 'JOINED' | 'LEGAL_FORM';
  /** How alike the two are, 0..1. */
  readonly similarity: number;
  /** The pair's share of the names' weight, 0..1: a rare word weighs much, `mohammed` or `llc` little. */
  readonly weight: number;
};

/** How the client's country compares with the listed entry's (`ScreeningSubject.country`). */
export type ScreeningCountryEvidence = {
  readonly subject: string;
  readonly listed: readonly string[];
  /** `MISMATCH` lowered the score; `UNKNOWN` when the entry names no country. */
  readonly outcome: 'MATCH' | 'MISMATCH' | 'UNKNOWN';
};

/**
 * How the client's birth date compares with the listed entry's (`ScreeningSubject.birthDate`), by
 * year: a year within one of one of the entry's is a `MATCH` (a year off is a common slip of data
 * entry, and lists give a year for a date they are unsure of).
 */
export type ScreeningBirthDateEvidence = {
  readonly subject: string;
  /** The entry's birth dates as the list gives them (full dates or years); unreadable ones are ignored. */
  readonly listed: readonly string[];
  /** `MISMATCH` lowered the score; `UNKNOWN` when the entry gives no readable birth date. */
  readonly outcome: 'MATCH' | 'MISMATCH' | 'UNKNOWN';
};

/** Why a name scored what it did, for the reviewer. */
export type ScreeningExplanation = {
  /** One readable sentence or two: `"sokolov" = "sokolov" (rare surname, 62% of the weight); …`. */
  readonly summary: string;
  readonly tokens: readonly ScreeningTokenMatch[];
  /** Words of the screened name paired with none of the listed name's, normalized. */
  readonly unmatchedSubject: readonly string[];
  /** Words of the listed name paired with none of the screened name's, normalized. */
  readonly unmatchedListed: readonly string[];
  /** Present when the subject carried a country. */
  readonly country?: ScreeningCountryEvidence;
  /** Present when the subject carried a birth date. */
  readonly birthDate?: ScreeningBirthDateEvidence;
};

/** The listed entry a subject resembles, as the list gives it. */
export type ScreeningListEntry = {
  /** The entry's main name on the list. */
  readonly name: string;
  readonly aliases: readonly string[];
  /** Every list (dataset) naming the entry. */
  readonly datasets: readonly string[];
  /** ISO 3166-1 alpha-2, lower case as lists give them. */
  readonly countries: readonly string[];
  /** As the list gives them: `1961-04-12`, `1955`. */
  readonly birthDates: readonly string[];
  /** `Person`, `Company`, `Organization`… (FollowTheMoney schemas), when the list says. */
  readonly schema?: string;
};

/** A subject that resembles a listed name. */
export type ScreeningMatch = {
  /** The subject's `field`, as it was given. */
  readonly field: string;
  readonly name: string;
  /** The list (dataset) the match is reported under: the entry's first. */
  readonly listName: string;
  /** The entry's name or alias that matched. */
  readonly matchedName: string;
  /** How alike the names are, from 0 to 1. */
  readonly score: number;
  /** The listed entry's id on its list (stable across list versions): what a dismissal is kept for. */
  readonly targetId: string;
  /** Why the score is what it is; a provider that cannot say leaves it out. */
  readonly explanation?: ScreeningExplanation;
  /** The entry as the list gives it; a provider that cannot say leaves it out. */
  readonly entry?: ScreeningListEntry;
};
