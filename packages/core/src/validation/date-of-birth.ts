/** A date of birth as the payloads take it: a calendar date, `YYYY-MM-DD`, from 1900 on. */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EARLIEST_YEAR = 1900;

export const DATE_OF_BIRTH_MESSAGE = 'Must be a date as YYYY-MM-DD from 1900 on, such as 1984-03-21, or null';

/**
 * Whether `value` is a date of birth: a day that exists (`1984-02-30` does not), in a year from
 * 1900. Whether it lies in the past is checked by the client service, against the kit's clock
 * (`datesOfBirthAfter`): validation reads no clock.
 */
export const isDateOfBirth = (value: string): boolean => {
  const parts = CALENDAR_DATE.exec(value);
  if (parts === null) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  return (
    year >= EARLIEST_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
  );
};
