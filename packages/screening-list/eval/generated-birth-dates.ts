/**
 * Birth dates for the evaluation's and the benches' generated lists and clients, drawn from their
 * own seeded sequence so that the names drawn beside them are the same as without them.
 *
 * A listed person, as sanctions lists give them: 70 % a full date, 15 % a year only, 15 % none;
 * one in ten of those dated also gives a second, other year ("alt. DOB", up to three years apart).
 * Lists name most sanctioned persons with a date of birth because it is what tells a listed person
 * from a namesake (the EU and UN lists give one for nearly every person, OFAC's SDN list for most,
 * often a year or two alternatives when the source is unsure); PEP and wanted lists give it less
 * often. Years are drawn around 1967 (1935–2000): adults listed for what they did or held.
 * A client: born 1940–2006 (an adult of 20 to 86), independently of any listed person.
 */
import { seededRandom } from './multicultural-names.js';

const twoDigits = (value: number) => String(value).padStart(2, '0');
const dateIn = (random: () => number, year: number) =>
  `${year}-${twoDigits(1 + Math.floor(random() * 12))}-${twoDigits(1 + Math.floor(random() * 28))}`;

/** Birth dates of listed persons, one call a person, as a targets.simple.csv cell gives them. */
export const listedBirthDates = (seed: number) => {
  const random = seededRandom(seed ^ 0xd0b);
  return (): readonly string[] => {
    const kind = random();
    if (kind >= 0.85) return [];
    const year = 1935 + Math.round(((random() + random() + random()) / 3) * 65);
    const first = kind < 0.7 ? dateIn(random, year) : String(year);
    if (random() >= 0.1) return [first];
    const apart = 1 + Math.floor(random() * 3);
    return [first, String(random() < 0.5 ? year - apart : year + apart)];
  };
};

/** A client's own birth date, drawn independently of every listed person. */
export const clientBirthDates = (seed: number) => {
  const random = seededRandom(seed ^ 0xc11e);
  return (): string => dateIn(random, 1940 + Math.floor(random() * 67));
};

/**
 * The birth date a listed person gives as a client: the listed one (a listed year written as a full
 * date of that year), or one year off in one case of ten (a date typed from a form or an age, which
 * the matcher tolerates), or none in one case of five (the payload's birth date is optional);
 * a person the list gives no date for gives one of their own.
 */
export const matchedClientBirthDates = (seed: number) => {
  const random = seededRandom(seed ^ 0x5a3e);
  const own = clientBirthDates(seed ^ 0x77);
  return (listed: readonly string[]): string | undefined => {
    if (random() < 0.2) return undefined;
    const [first] = listed;
    if (first === undefined) return own();
    const year = Number(first.slice(0, 4));
    if (random() < 0.1) return dateIn(random, random() < 0.5 ? year - 1 : year + 1);
    return first.length === 4 ? dateIn(random, year) : first;
  };
};

/** A targets.simple.csv cell of several values. */
export const birthDateCell = (dates: readonly string[]) => dates.join(';');
