import type { ScreeningBirthDateEvidence } from '@onboarding-kit/core/adapter';

/**
 * Two birth years this far apart or less are the same person's as far as the dates say: a year off
 * is the commonest slip of data entry (a date typed from a form, a year from an age), and a list
 * unsure of a date gives the years it hesitates between. Further apart is another person's date.
 */
const YEARS_APART = 1;

const EARLIEST_YEAR = 1800;
const LATEST_YEAR = 2200;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `length` ASCII digits of `text` from `at`, or -1. */
const digits = (text: string, from: number, length: number): number => {
  let value = 0;
  for (let at = from; at < from + length; at += 1) {
    const code = text.charCodeAt(at) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
};

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The year of an ISO 8601 date, month or year (`1961-04-12`, `1961-04`, `1961`, as lists and the
 * kit write them); undefined for anything else (`circa 1960`, `12/04/1961`, a month 13, a
 * 30 February, a year 0961): an unreadable date is no evidence either way. Read without a regular
 * expression: it runs for every candidate the matcher weighs, and allocates nothing.
 */
export const birthYear = (written: string): number | undefined => {
  const date =
    written.length === 4 || written.length === 7 || written.length === 10 ? written : written.trim();
  if (date.length !== 4 && date.length !== 7 && date.length !== 10) return undefined;
  const year = digits(date, 0, 4);
  if (year < EARLIEST_YEAR || year > LATEST_YEAR) return undefined;
  if (date.length === 4) return year;
  const month = date.charCodeAt(4) === 45 ? digits(date, 5, 2) : -1;
  if (month < 1 || month > 12) return undefined;
  if (date.length === 7) return year;
  const day = date.charCodeAt(7) === 45 ? digits(date, 8, 2) : -1;
  const days = month === 2 && !isLeap(year) ? 28 : (DAYS_IN_MONTH[month - 1] as number);
  return day >= 1 && day <= days ? year : undefined;
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
