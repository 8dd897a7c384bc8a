import { isPossiblePhoneNumber } from 'libphonenumber-js';

/**
 * An international phone number (`+` and the country calling code) whose length is possible for
 * its country. Without a default country, libphonenumber-js only accepts the international form,
 * so a national number such as `0612345678` is refused.
 */
export const isPossibleInternationalPhoneNumber = (value: string): boolean =>
  value.startsWith('+') && isPossiblePhoneNumber(value);
