import {
  birthDateCell,
  clientBirthDates,
  listedBirthDates,
  matchedClientBirthDates,
} from '../packages/screening-list/eval/generated-birth-dates.js';
import {
  companyName,
  cultures,
  personName,
  pick,
  seededRandom,
} from '../packages/screening-list/eval/multicultural-names.js';

/** A name to screen: a person's or an organisation's, a person's with a birth date when the client gives one. */
export type ScreenedName = {
  readonly kind: 'person' | 'organization';
  readonly name: string;
  readonly birthDate?: string;
};

/** A listed name kept to vary, with the listed person's birth dates. */
type ListedName = ScreenedName & { readonly birthDates: readonly string[] };

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The screening benches' list: `targets` names drawn from several cultures and scripts (seeded, the
 * same every run), as the rows of a `targets.simple.csv`. Every 997th name is kept in
 * `listedSample` as the rows are read, for `screenedNames` to vary.
 */
export const generatedScreeningList = (targets: number) => {
  const listedSample: ListedName[] = [];
  async function* rows(): AsyncGenerator<string> {
    const random = seededRandom(0x5ca1e);
    // Drawn apart from the names, which stay those of the runs before the list had birth dates.
    const birthDates = listedBirthDates(0x5ca1e);
    yield 'id,schema,name,aliases,birth_date,countries,dataset\n';
    for (let i = 0; i < targets; i += 1) {
      if (random() < 0.7) {
        const culture = pick(random, cultures);
        const native = random() < 0.2;
        const name = personName(random, culture, native ? 'native' : 'latin');
        const born = birthDates();
        if (i % 997 === 0) listedSample.push({ kind: 'person', name, birthDates: born });
        yield `b-${i},Person,${quoted(name)},,${birthDateCell(born)},,Bench List\n`;
      } else {
        const name = companyName(random);
        if (i % 997 === 0) listedSample.push({ kind: 'organization', name, birthDates: [] });
        yield `b-${i},Company,${quoted(name)},,,,Bench List\n`;
      }
    }
  }
  return { rows: rows(), listedSample };
};

/**
 * `queries` screened names: every other one a listed name varied as clients write them (reordered,
 * a letter dropped, upper case), the others clean people of every culture. Persons give a birth
 * date as the evaluation's clients do (`generated-birth-dates.ts`): the listed one's, or their own.
 */
export const screenedNames = (listedSample: readonly ListedName[], queries: number): ScreenedName[] => {
  const random = seededRandom(0xbe7c4);
  const listedBorn = matchedClientBirthDates(0xbe7c4);
  const cleanBorn = clientBirthDates(0xbe7c4);
  const born = (kind: ScreenedName['kind'], date: string | undefined) =>
    kind === 'person' && date !== undefined ? { birthDate: date } : {};
  const names: ScreenedName[] = [];
  for (let i = 0; i < queries; i += 1) {
    if (i % 2 === 0 && listedSample.length > 0) {
      const listed = pick(random, listedSample);
      const words = listed.name.split(' ');
      const varied =
        i % 6 === 0
          ? [...words].reverse().join(' ')
          : i % 6 === 2
            ? words
                .map((word, at) =>
                  at === words.length - 1 && word.length > 4 ? word.slice(0, 2) + word.slice(3) : word,
                )
                .join(' ')
            : listed.name.toUpperCase();
      names.push({ kind: listed.kind, name: varied, ...born(listed.kind, listedBorn(listed.birthDates)) });
    } else {
      names.push({
        kind: 'person',
        name: personName(random, pick(random, cultures)),
        ...born('person', cleanBorn()),
      });
    }
  }
  return names;
};
