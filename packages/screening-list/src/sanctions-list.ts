import type { ScreeningCountryEvidence, ScreeningExplanation } from '@onboarding-kit/core/adapter';
import type { ResultAsync } from 'neverthrow';
import { birthDateEvidence } from './birth-date-evidence.js';
import { koreanReading } from './korean-romanization.js';
import { foldLegalForms } from './legal-forms.js';
import { createNameIndexBuilder, type NameIndex } from './name-index.js';
import { explainName, type NamePairing, type NameScore, scoreName, type WeightedWord } from './name-score.js';
import { nameWords, otherReadings, writtenWords } from './normalize-name.js';
import { type ListTarget, readTargetsCsv, type SanctionsListUnreadable } from './targets-csv.js';

/** Who is screened: a person, or an organization (a company, a legal UBO); the client's country if known. */
export type ScreenedName = {
  readonly kind: 'person' | 'organization';
  readonly name: string;
  /** ISO 3166-1 alpha-2: evidence (a mismatch lowers the score), never a filter. */
  readonly country?: string;
  /** ISO 8601 (`1961-04-12`): evidence (a listed birth year more than one apart lowers the score), never a filter. */
  readonly birthDate?: string;
};

/** A list target whose name (or one of its aliases) is close enough to the screened name. */
export type ListMatch = {
  readonly targetId: string;
  /** The target as the list gives it (names, datasets, countries, birth dates). */
  readonly target: ListTarget;
  /** The target's main name on the list. */
  readonly targetName: string;
  /** The name or alias that matched. */
  readonly matchedName: string;
  /** The first dataset naming the target, e.g. `US OFAC Specially Designated Nationals (SDN) List`. */
  readonly listName: string;
  /** 0..100 (name-score.ts), lowered when the client's country or birth year is none of the target's. */
  readonly score: number;
  /** Which words matched which, how, and why the score is what it is. */
  readonly explanation: ScreeningExplanation;
};

export type SanctionsList = {
  /** Targets read (persons, organizations and any other schema). */
  readonly size: number;
  /**
   * Matches scoring at least `threshold` (default `DEFAULT_MATCH_THRESHOLD`), best first; among
   * the targets of `targetIds` only, when given (monitoring asks about the targets a version changed).
   */
  match(screened: ScreenedName, threshold?: number, targetIds?: readonly string[]): ListMatch[];
  /**
   * Every target screened (persons and organizations), in the file's order: what a comparison of
   * two list versions reads.
   */
  targets(): IterableIterator<ListTarget>;
};

/**
 * The score from which a name is a possible match, to be resolved by a person. Measured on the
 * committed evaluation set (`node --import tsx packages/screening-list/eval/evaluate.ts`, docs/performance.md).
 */
export const DEFAULT_MATCH_THRESHOLD = 80;

/**
 * A screened name that leaves out words of a listed one (a patronymic, a middle name) names that
 * listed person only if no other listed name holds the words it does: from this many others on,
 * the words left out are what tells the listed ones apart (`name-score.ts`, `namesakes`).
 */
const NAMESAKES = 3;

/**
 * A loaded list screens a spread sample of its own names before it answers, one listed name in
 * WARM_UP_SHARE up to WARM_UP_NAMES, each written in the ways clients write names (`warmUpNames`).
 * The host's first clients then meet the matcher compiled for every kind of name, and the
 * collector's young generation grown to the queries' pace, instead of paying for both in their
 * own screenings: a path of the matcher first taken while the host serves costs a
 * de-optimization and a compilation of tens of milliseconds (docs/performance.md, sixth pass).
 * A small list is not worth it.
 */
const WARM_UP_NAMES = 500;
const WARM_UP_SHARE = 100;
/** Birth dates the warm-up's persons give, of several decades: each meets listed dates it matches and misses. */
const WARM_UP_BIRTH_DATES = ['1961-04-12', '1985-07-01', '1970-01-01', '1990-12-31'];

/**
 * A listed name as clients write it: as listed; reordered; with a letter left out of its longest
 * word; its words run together (`DmitriSokolov`); that word cut in two (`Dmi triSokolov`); its
 * first word an initial, in capitals (`D. SOKOLOV`); and its first word before the last of
 * `other` (most likely no one listed, as most clients are not).
 */
const warmUpNames = (name: string, other: string): readonly string[] => {
  const words = name.split(' ');
  let longest = 0;
  for (let at = 1; at < words.length; at += 1)
    if ((words[at] as string).length > (words[longest] as string).length) longest = at;
  const word = words[longest] as string;
  const misspelled = words.map((each, at) => (at === longest ? word.slice(0, 2) + word.slice(3) : each));
  const joined = words.join('');
  const otherWords = other.split(' ');
  return [
    name,
    [...words].reverse().join(' '),
    misspelled.join(' '),
    joined,
    `${joined.slice(0, 3)} ${joined.slice(3)}`,
    `${(words[0] as string).slice(0, 1)}. ${words.slice(1).join(' ')}`.toUpperCase(),
    `${words[0]} ${otherWords[otherWords.length - 1]}`,
  ];
};

const warmUp = (list: SanctionsList, names: NameIndex) => {
  const count = Math.min(WARM_UP_NAMES, Math.floor(names.names / WARM_UP_SHARE));
  for (let at = 0; at < count; at += 1) {
    const id = Math.floor((at * names.names) / count);
    const next = Math.floor(((at + 1) * names.names) / count) % names.names;
    const kind = names.isOrganization(id) ? 'organization' : 'person';
    // Every other person with a birth date, as clients give one or not: both paths compiled.
    let variant = 0;
    for (const name of warmUpNames(names.textOf(id), names.textOf(next))) {
      variant += 1;
      list.match(
        kind === 'person' && variant % 2 === 0
          ? {
              kind,
              name,
              birthDate: WARM_UP_BIRTH_DATES[(at + variant) % WARM_UP_BIRTH_DATES.length] as string,
            }
          : { kind, name },
      );
    }
  }
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A client whose country is none of the target's scores this much of its name's score. */
const COUNTRY_MISMATCH_FACTOR = 0.9;

/**
 * A client born in another year than the target (`birth-date-evidence.ts`) scores this much of its
 * name's score. Chosen by measurement (docs/decisions.md, birth dates): a namesake whose given and
 * family name are a listed person's (`Andrey Lovba` / `Andrey Borisovich Lovba`) scores 85–95 on the
 * name alone.
 */
const BIRTH_DATE_MISMATCH_FACTOR = 0.8;

/**
 * A name whose every word pairs with the listed name's, none left over, scoring this much or more
 * on the name alone, is the listed name written another way (`Dmitry Sokolov`, `Dmitri Sokolow`,
 * `Dmitrii Sokolov` / `Dmitri Sokolov`: 98.8–99), not a namesake: like an identical name, the
 * evidence never takes it below the threshold. The client writes both the name and the date: one
 * letter changed and a false year must not screen CLEAR (`near-exact-name-with-a-false-birth-date`
 * tests). The clean clients' alerts on another name score 89–94 (docs/decisions.md, birth dates).
 */
const NEAR_EXACT_SCORE = 97;

/** FollowTheMoney schemas screened for each kind; vessels, aircraft and the rest never match a client. */
const schemasOf: Record<ScreenedName['kind'], ReadonlySet<string>> = {
  person: new Set(['Person']),
  organization: new Set(['Organization', 'Company', 'LegalEntity', 'PublicBody']),
};

/** The words a name is compared by: a company's legal forms folded to one symbol each. */
const comparedWords = (name: string, organization: boolean): string[] => {
  const words = nameWords(name);
  return organization ? foldLegalForms(words) : words;
};

/** The screened name's words, weighted; each read as a known name only if written in Latin letters. */
const screenedWords = (name: string, organization: boolean, index: NameIndex): WeightedWord[] => {
  const written = writtenWords(name);
  const words = written.map((word) => word.text);
  const compared = organization ? foldLegalForms(words) : words;
  const weighted = compared.map((word) => index.weigh(word));
  if (written.every((word) => word.latin)) return weighted;
  const transliterated = new Set(written.filter((word) => !word.latin).map((word) => word.text));
  return weighted.map((word, at) =>
    transliterated.has(compared[at] as string) ? { ...word, known: false } : word,
  );
};

const countryEvidence = (country: string, listed: readonly string[]): ScreeningCountryEvidence => ({
  subject: country,
  listed,
  outcome:
    listed.length === 0
      ? 'UNKNOWN'
      : listed.some((code) => code.toLowerCase() === country.toLowerCase())
        ? 'MATCH'
        : 'MISMATCH',
});

/** Best score first; ties in the order of their ids' code units (localeCompare costs a microsecond a call). */
const before = (a: ListMatch, b: ListMatch): boolean =>
  a.score > b.score || (a.score === b.score && a.targetId < b.targetId);

/** Sorted in place (`before`), by insertion: a few matches (Array#sort allocates a work array a call). */
const sortMatches = (matches: ListMatch[]): ListMatch[] => {
  for (let at = 1; at < matches.length; at += 1) {
    const match = matches[at] as ListMatch;
    let to = at;
    while (to > 0 && before(match, matches[to - 1] as ListMatch)) {
      matches[to] = matches[to - 1] as ListMatch;
      to -= 1;
    }
    matches[to] = match;
  }
  return matches;
};

const percent = (share: number) => `${Math.round(share * 100)}%`;

const summaryOf = (
  score: number,
  explanation: Omit<ScreeningExplanation, 'summary'>,
  namesakes: boolean,
): string => {
  const pairs = explanation.tokens.map(
    (token) =>
      `"${token.subject}" ${token.kind === 'EXACT' ? '=' : '≈'} "${token.listed}" (${token.kind.toLowerCase().replace('_', ' ')}, ${percent(token.weight)} of the weight)`,
  );
  const parts = [
    `Score ${Math.round(score)}: ${pairs.length === 0 ? 'no word in common' : pairs.join('; ')}.`,
  ];
  if (explanation.unmatchedSubject.length > 0) {
    parts.push(`Only in the client's name: ${explanation.unmatchedSubject.join(', ')}.`);
  }
  if (explanation.unmatchedListed.length > 0) {
    parts.push(`Only in the listed name: ${explanation.unmatchedListed.join(', ')}.`);
  }
  if (namesakes) {
    parts.push(
      'Other listed names hold the words paired too: the words only the listed name has are what tells them apart, and count in full.',
    );
  }
  if (explanation.country?.outcome === 'MISMATCH') {
    parts.push(
      `The client's country ${explanation.country.subject} is none of the entry's (${explanation.country.listed.join(', ')}): the score is lowered.`,
    );
  }
  if (explanation.birthDate?.outcome === 'MISMATCH') {
    // The entry's dates are beside it (`birthDate.listed`): the sentence is the same for every
    // target of one name, and written once for them.
    parts.push(
      `The client's birth date ${explanation.birthDate.subject} is more than a year from every birth date of the entry: the score is lowered.`,
    );
  }
  return parts.join(' ');
};

/**
 * Loads a list in the OpenSanctions `targets.simple.csv` format from a stream, keeping the persons
 * and organizations, and indexes their names and aliases once (`name-index.ts`). A screened name is
 * scored (`name-score.ts`) against the few listed names sharing enough of its words, sound-alike
 * words, joined or split words; a target answers once, with its best name.
 */
export const loadSanctionsList = (
  input: AsyncIterable<string | Uint8Array>,
): ResultAsync<SanctionsList, SanctionsListUnreadable> => {
  const builder = createNameIndexBuilder();
  const loaded: ListTarget[] = [];
  const namesOfTarget = new Map<string, number[]>();
  /** The listed names added as a name's Korean reading: their text is the name's, their words are not. */
  const koreanReadings = new Set<number>();
  const index = (target: ListTarget) => {
    const organization = schemasOf.organization.has(target.schema);
    if (!organization && !schemasOf.person.has(target.schema)) return;
    const at = loaded.length;
    loaded.push(target);
    const names: number[] = [];
    namesOfTarget.set(target.id, names);
    for (const name of new Set([target.name, ...target.aliases])) {
      const words = comparedWords(name, organization);
      const id = builder.add(words, at, organization, name);
      if (id >= 0) names.push(id);
      // A person's name that reads as Korean is also listed as lists write Korean names
      // (`GIM Jeong-eun` as `kim jong un`), beside the name as written, under the same text.
      const korean = organization ? undefined : koreanReading(words);
      if (korean === undefined) continue;
      const reading = builder.add(korean.split(' '), at, false, name);
      names.push(reading);
      koreanReadings.add(reading);
    }
  };
  return readTargetsCsv(input, index).map((size) => {
    const names = builder.build();
    // A candidate's words, read into one array reused by every query (matching is synchronous
    // and the scorer keeps none of them).
    const listedWords: WeightedWord[] = [];
    // Which query last matched each target (its number), and where in that query's matches: a
    // target answers once, with its best name, without a Map made a query.
    const matchedBy = new Int32Array(loaded.length);
    const matchedAt = new Int32Array(loaded.length);
    let query = 0;
    const matchReading = (
      screened: ScreenedName,
      threshold: number,
      targetIds: readonly string[] | undefined,
    ): ListMatch[] => {
      const organization = screened.kind === 'organization';
      const words = screenedWords(screened.name, organization, names);
      if (query === 0x7fffffff) {
        matchedBy.fill(0);
        query = 0;
      }
      query += 1;
      // The best match of each target, in the order the targets were first matched.
      const matches: ListMatch[] = [];
      const candidates =
        targetIds === undefined
          ? names.candidates(words, organization)
          : targetIds.flatMap((id) => namesOfTarget.get(id) ?? []);
      // A name listed for many targets is scored, and explained, once a query.
      const scoredNames = new Map<string, NameScore>();
      // Only names that pass the threshold are explained.
      let explained:
        | Map<
            string,
            {
              pairing: NamePairing;
              explanation?: ScreeningExplanation;
              summary?: string;
              /** The summary of a score lowered by a birth date only (the same for every target of the name). */
              bornElsewhere?: string;
            }
          >
        | undefined;
      for (let at = 0; at < candidates.length; at += 1) {
        const candidate = candidates[at] as number;
        if (names.isOrganization(candidate) !== organization) continue;
        const listedTarget = names.targetOf(candidate);
        const listedText = names.textOf(candidate);
        const target = loaded[listedTarget] as ListTarget;
        // The same text is the same words (an alias listed for many targets, a common name), but
        // for a name's Korean reading, which is listed under the name's text.
        const textKey = koreanReadings.has(candidate) ? `${listedText}\u0000korean` : listedText;
        let scored = scoredNames.get(textKey);
        if (scored === undefined) {
          scored = scoreName(words, names.wordsInto(candidate, listedWords));
          if (
            scored.shorter &&
            scored.score * 100 >= threshold &&
            names.sharedByOthers(candidate, scored.pairedListed, NAMESAKES) >= NAMESAKES
          )
            scored = scoreName(words, listedWords, true);
          scoredNames.set(textKey, scored);
        }
        // A listed name in the screened one whole, each word the same or written another way
        // (`NEAR_EXACT_SCORE`), is a match however many words were added to it: each added word
        // lowered the score, and three hid a listed name of two.
        const contained = scored.contains && scored.listedCoverage * 100 >= NEAR_EXACT_SCORE;
        // The listed name written with initials, every word given (`V. V. Putin` / Vladimir
        // Vladimirovich Putin) is a match on the name as `V. Orlov` / Vladimir Orlov is: each
        // initial's pair counts less, so more of the listed name given scored less (78 against 83).
        // The evidence may still take it below: initials are how a namesake is written too.
        const nameScore =
          contained || scored.initialled ? Math.max(scored.score * 100, threshold) : scored.score * 100;
        // The evidence only lowers a score: a name under the threshold is not weighed (nor allocated for).
        if (nameScore < threshold) continue;
        const country =
          screened.country === undefined ? undefined : countryEvidence(screened.country, target.countries);
        const birthDate =
          screened.birthDate === undefined
            ? undefined
            : birthDateEvidence(screened.birthDate, target.birthDates);
        let score = nameScore;
        // A mismatch lowers the score, but never hides a name identical word for word, one
        // written another way (`NEAR_EXACT_SCORE`), or one holding the listed name whole.
        if (country?.outcome === 'MISMATCH') score *= COUNTRY_MISMATCH_FACTOR;
        if (birthDate?.outcome === 'MISMATCH') score *= BIRTH_DATE_MISMATCH_FACTOR;
        const nearExact =
          scored.exact || (scored.whole && scored.score * 100 >= NEAR_EXACT_SCORE) || contained;
        if (nearExact && score < nameScore) score = Math.max(score, threshold);
        const known =
          matchedBy[listedTarget] === query ? matches[matchedAt[listedTarget] as number] : undefined;
        if (score < threshold || (known !== undefined && known.score >= score)) continue;
        explained ??= new Map();
        let same = explained.get(textKey);
        if (same === undefined) {
          same = { pairing: explainName(words, names.wordsInto(candidate, listedWords), scored.namesakes) };
          explained.set(textKey, same);
        }
        let explanation: ScreeningExplanation;
        if (country === undefined && birthDate === undefined) {
          // One explanation for every target of the same name (read, never changed, by the caller).
          same.explanation ??= {
            summary: summaryOf(score, same.pairing, scored.namesakes),
            ...same.pairing,
          };
          explanation = same.explanation;
        } else {
          // Each target its own evidence; the name's account is written once a listed text, and
          // written again, with the evidence's sentence, only for a score the evidence lowered.
          const details: Mutable<ScreeningExplanation> = {
            summary: '',
            tokens: same.pairing.tokens,
            unmatchedSubject: same.pairing.unmatchedSubject,
            unmatchedListed: same.pairing.unmatchedListed,
          };
          if (country !== undefined) details.country = country;
          if (birthDate !== undefined) details.birthDate = birthDate;
          if (country?.outcome === 'MISMATCH') details.summary = summaryOf(score, details, scored.namesakes);
          else if (birthDate?.outcome === 'MISMATCH')
            details.summary = same.bornElsewhere ??= summaryOf(score, details, scored.namesakes);
          else details.summary = same.summary ??= summaryOf(score, same.pairing, scored.namesakes);
          explanation = details;
        }
        const match: ListMatch = {
          targetId: target.id,
          target,
          targetName: target.name,
          matchedName: listedText,
          listName: target.datasets[0] ?? '',
          score: Math.round(score * 10) / 10,
          explanation,
        };
        if (known === undefined) {
          matchedBy[listedTarget] = query;
          matchedAt[listedTarget] = matches.length;
          matches.push(match);
        } else {
          matches[matchedAt[listedTarget] as number] = match;
        }
      }
      return sortMatches(matches);
    };
    const list: SanctionsList = {
      size,
      targets: () => loaded.values(),
      // A name with a capital I inside a word is screened as read both ways (`DeepakIyer`: an l,
      // or a word's start), and one with words in disguise also as it reads to the eye
      // (`S0k0l0v`, `ВЕӀОѴ`), a person's with initials written together also with each apart
      // (`Putin V.V.`): each target answers once, with its best score.
      match: (screened, threshold = DEFAULT_MATCH_THRESHOLD, targetIds) => {
        const matches = matchReading(screened, threshold, targetIds);
        const others = otherReadings(screened.name, screened.kind === 'person');
        if (others.length === 0) return matches;
        const best = new Map(matches.map((match) => [match.targetId, match]));
        for (const other of others) {
          for (const match of matchReading({ ...screened, name: other }, threshold, targetIds)) {
            const known = best.get(match.targetId);
            if (known === undefined || match.score > known.score) best.set(match.targetId, match);
          }
        }
        return sortMatches([...best.values()]);
      },
    };
    warmUp(list, names);
    return list;
  });
};
