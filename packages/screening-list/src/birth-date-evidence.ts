import type { ScreeningBirthDateEvidence } from '@onboarding-kit/core/adapter';

/**
 * Two birth years this far apart or less are the same person's as far as the dates say: a year off
 * is the commonest slip of data entry (a date typed from a form, a year from an age), and a list
 * unsure of a date gives the years it hesitates between. Further apart is another person's date.
 */
const YEARS_APART = 1;

/** `1961-04-12`, `1961-04` or `1961`, as lists (targets.simple.csv) and the kit write dates. */
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const EARLIEST_YEAR = 1800;
const LATEST_YEAR = 2200;

/**
 * The year of an ISO 8601 date, month or year; undefined for anything else (`circa 1960`,
 * `12/04/1961`, a month 13, a year 0961): an unreadable date is no evidence either way.
 */
export const birthYear = (date: string): number | undefined => {
  const parts = ISO_DATE.exec(date.trim());
  if (parts === null) return undefined;
  const year = Number(parts[1]);
  if (year < EARLIEST_YEAR || year > LATEST_YEAR) return undefined;
  const month = parts[2] === undefined ? 1 : Number(parts[2]);
  const day = parts[3] === undefined ? 1 : Number(parts[3]);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate())
    return undefined;
  return year;
};

/**
 * The client's birth date beside the entry's, by year (OpenSanctions' matchers too weigh a disjoint
 * birth year against a name's resemblance): a MATCH when one of the entry's years is within
 * `YEARS_APART` of the client's, a MISMATCH when the entry gives readable years and none is,
 * UNKNOWN when it gives none. Undefined when the client's own date is unreadable: no evidence.
 */
export const birthDateEvidence = (
  subject: string,
  listed: readonly string[],
): ScreeningBirthDateEvidence | undefined => {
  const year = birthYear(subject);
  if (year === undefined) return undefined;
  let readable = false;
  for (const date of listed) {
    const other = birthYear(date);
    if (other === undefined) continue;
    if (Math.abs(other - year) <= YEARS_APART) return { subject, listed, outcome: 'MATCH' };
    readable = true;
  }
  return { subject, listed, outcome: readable ? 'MISMATCH' : 'UNKNOWN' };
};
