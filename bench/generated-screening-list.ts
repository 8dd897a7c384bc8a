import {
  companyName,
  cultures,
  personName,
  pick,
  seededRandom,
} from '../packages/screening-list/eval/multicultural-names.js';

/** A name to screen: a person's or an organisation's. */
export type ScreenedName = { readonly kind: 'person' | 'organization'; readonly name: string };

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The screening benches' list: `targets` names drawn from several cultures and scripts (seeded, the
 * same every run), as the rows of a `targets.simple.csv`. Every 997th name is kept in
 * `listedSample` as the rows are read, for `screenedNames` to vary.
 */
export const generatedScreeningList = (targets: number) => {
  const listedSample: ScreenedName[] = [];
  async function* rows(): AsyncGenerator<string> {
    const random = seededRandom(0x5ca1e);
    yield 'id,schema,name,aliases,birth_date,countries,dataset\n';
    for (let i = 0; i < targets; i += 1) {
      if (random() < 0.7) {
        const culture = pick(random, cultures);
        const native = random() < 0.2;
        const name = personName(random, culture, native ? 'native' : 'latin');
        if (i % 997 === 0) listedSample.push({ kind: 'person', name });
        yield `b-${i},Person,${quoted(name)},,,,Bench List\n`;
      } else {
        const name = companyName(random);
        if (i % 997 === 0) listedSample.push({ kind: 'organization', name });
        yield `b-${i},Company,${quoted(name)},,,,Bench List\n`;
      }
    }
  }
  return { rows: rows(), listedSample };
};

/**
 * `queries` screened names: every other one a listed name varied as clients write them (reordered,
 * a letter dropped, upper case), the others clean people of every culture.
 */
export const screenedNames = (listedSample: readonly ScreenedName[], queries: number): ScreenedName[] => {
  const random = seededRandom(0xbe7c4);
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
      names.push({ kind: listed.kind, name: varied });
    } else {
      names.push({ kind: 'person', name: personName(random, pick(random, cultures)) });
    }
  }
  return names;
};
