import { process_and_sort, ratio } from 'fuzzball';
import { transliterate } from 'transliteration';
import { type ListTarget, readTargetsCsv } from '../../packages/screening-list/src/targets-csv.js';
import { characterKinds, mayReach, screenedCharacters } from './score-upper-bound.js';

/**
 * The matcher the list provider had before the token matcher, kept as the baseline its replacement is measured
 * against (bench/screening-list-scale.ts, packages/screening-list/eval/evaluate.ts): fuzzball's
 * token_sort_ratio behind first-letter blocking and a lossless score bound.
 */
const normalizeName = (name: string): string =>
  transliterate(name.normalize('NFKC'))
    .toLowerCase()
    .replace(/['.’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const nameTokens = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));

/** Who is screened: a person, or an organization (a company, a legal UBO). */
export type ScreenedName = { readonly kind: 'person' | 'organization'; readonly name: string };

/** A list target whose name (or one of its aliases) is close enough to the screened name. */
export type ListMatch = {
  readonly targetId: string;
  /** The target's main name on the list. */
  readonly targetName: string;
  /** The name or alias that matched. */
  readonly matchedName: string;
  /** The first dataset naming the target, e.g. `US OFAC Specially Designated Nationals (SDN) List`. */
  readonly listName: string;
  /**
   * 0..100: fuzzball's token_sort_ratio of the normalized names (word order ignored), i.e. its
   * `ratio` of their words sorted.
   */
  readonly score: number;
};

export type SanctionsList = {
  /** Targets loaded (persons, organizations and any other schema). */
  readonly size: number;
  /** Matches scoring at least `threshold` (default `DEFAULT_MATCH_THRESHOLD`), best first. */
  match(screened: ScreenedName, threshold?: number): ListMatch[];
};

/**
 * The score from which a name is a possible match, to be resolved by a person. 90 flags spelling
 * and transliteration variants (Aleksey Navalnyy / Navalny: 97) and a word order change, not a
 * different first or last name (Vladimir Popov / Putin: 71; Ivan Petrov / Petrovich: 88).
 */
export const DEFAULT_MATCH_THRESHOLD = 90;

/** FollowTheMoney schemas screened for each kind; vessels, aircraft and the rest never match a client. */
const schemasOf: Record<ScreenedName['kind'], ReadonlySet<string>> = {
  person: new Set(['Person']),
  organization: new Set(['Organization', 'Company', 'LegalEntity', 'PublicBody']),
};

type IndexedName = {
  readonly target: ListTarget;
  readonly name: string;
  /** The normalized name's words, sorted (fuzzball's `process_and_sort`): what is scored. */
  readonly sorted: string;
  readonly length: number;
  /** The kinds of characters it holds (score-upper-bound.ts). */
  readonly kinds: number;
};

/**
 * Loads a list (a bench's own: it throws on an unreadable file) in the OpenSanctions `targets.simple.csv` format from a stream, keeping only the
 * names of persons and organizations, indexed by the first letter of each of their words: a
 * screened name is scored against the names sharing one of its words' first letters, not the
 * whole list, and only those a cheap bound does not rule out (score-upper-bound.ts).
 */
export const loadSanctionsList = async (
  input: AsyncIterable<string | Uint8Array>,
): Promise<SanctionsList> => {
  const byInitial = new Map<string, IndexedName[]>();
  const index = (target: ListTarget) => {
    if (!schemasOf.person.has(target.schema) && !schemasOf.organization.has(target.schema)) return;
    for (const name of new Set([target.name, ...target.aliases])) {
      const normalized = normalizeName(name);
      const initials = new Set(nameTokens(normalized).map((token) => token.charAt(0)));
      const entry = {
        target,
        name,
        sorted: process_and_sort(normalized),
        length: normalized.length,
        kinds: characterKinds(normalized),
      };
      for (const initial of initials) {
        const names = byInitial.get(initial);
        if (names === undefined) byInitial.set(initial, [entry]);
        else names.push(entry);
      }
    }
  };
  const read = await readTargetsCsv(input, index);
  if (read.isErr()) throw new Error(`Unreadable list: ${read.error.reason}`);
  const size = read.value;
  return {
    size,
    match: (screened, threshold = DEFAULT_MATCH_THRESHOLD) => {
      const normalized = normalizeName(screened.name);
      const sorted = process_and_sort(normalized);
      const characters = screenedCharacters(normalized);
      const schemas = schemasOf[screened.kind];
      const best = new Map<string, ListMatch>();
      for (const initial of new Set(nameTokens(normalized).map((token) => token.charAt(0)))) {
        for (const candidate of byInitial.get(initial) ?? []) {
          if (!schemas.has(candidate.target.schema) || !mayReach(characters, candidate, threshold)) continue;
          const score = ratio(sorted, candidate.sorted, { full_process: false });
          const known = best.get(candidate.target.id);
          if (score < threshold || (known !== undefined && known.score >= score)) continue;
          best.set(candidate.target.id, {
            targetId: candidate.target.id,
            targetName: candidate.target.name,
            matchedName: candidate.name,
            listName: candidate.target.datasets[0] ?? '',
            score,
          });
        }
      }
      return [...best.values()].sort((a, b) => b.score - a.score || a.targetId.localeCompare(b.targetId));
    },
  };
};
