import type { AuditChange } from '../schemas/audit.js';
import type { Screening, ScreeningHit } from '../schemas/client-response.js';
import type { StoredClient } from './client.js';
import type { ScreeningMatch, ScreeningSubject } from './screening-match.js';

/** The screening of a client just created: pending when the kit screens, else none. */
export const initialScreening = (screens: boolean): Screening | null =>
  screens ? { status: 'PENDING', screenedAt: null, hits: [] } : null;

const isDismissed = (hit: ScreeningHit): boolean => hit.resolution?.decision === 'DISMISSED';
const isConfirmed = (hit: ScreeningHit): boolean => hit.resolution?.decision === 'CONFIRMED';
/** A hit a reviewer decided: dismissed or confirmed. */
const isDecided = (hit: ScreeningHit): boolean => hit.resolution !== null;

/**
 * The screening of a client resubmitted: pending, with the hits a reviewer decided and no open one.
 * The dismissed are the client's whitelist: the screening to come records a match that is one of
 * these findings (`dismissalCovers`) dismissed again, not as a new hit to review. The confirmed
 * stay whatever the new names: a client confirmed as a listed party is not cleared by resubmitting
 * under a name the list misses; a reviewer's new decision on the hit is what lets it go on.
 */
export const rescreening = (previous: Screening | null, screens: boolean): Screening | null =>
  screens
    ? {
        status: 'PENDING',
        screenedAt: null,
        hits: (previous?.hits ?? []).filter(isDecided),
      }
    : null;

/** The names a finding was made against: the listed entry's, or the name matched when the provider gave no entry. */
const listedNamesOf = (
  entry: { readonly name: string; readonly aliases: readonly string[] } | null | undefined,
  matchedName: string,
): string =>
  JSON.stringify(entry == null ? [matchedName] : [...new Set([entry.name, ...entry.aliases])].sort());

/**
 * Whether a match is a finding the client has already: the same client name and the same listed
 * target, under the same listed names. A hit a reviewer dismissed is not raised again for it, on a
 * later list version or a full screening of a resubmission (a whitelist, as the field calls it),
 * as long as it was dismissed on the same evidence (`dismissalCovers`); it comes back when the
 * client's name or the target's names change.
 */
export const sameFinding = (hit: ScreeningHit, match: ScreeningMatch): boolean =>
  hit.name === match.name &&
  hit.targetId === match.targetId &&
  listedNamesOf(hit.entry, hit.matchedName) === listedNamesOf(match.entry, match.matchedName);

type Evidence = { readonly subject: string; readonly outcome: string } | null | undefined;

/** How strongly evidence says "the listed party": a mismatch, nothing known (or none weighed), a match. */
const strengthOf = (evidence: Evidence): number =>
  evidence?.outcome === 'MISMATCH' ? 0 : evidence?.outcome === 'MATCH' ? 2 : 1;

/**
 * Whether the evidence now points more to the listed party than what the reviewer read: a stronger
 * outcome (a MISMATCH become UNKNOWN or MATCH), or a MATCH on another value of the client's.
 */
const strengthened = (read: Evidence, now: Evidence): boolean =>
  strengthOf(now) > strengthOf(read) ||
  (now?.outcome === 'MATCH' && read?.outcome === 'MATCH' && now.subject !== read.subject);

/**
 * Whether a dismissed hit still covers a match of the same finding: the reviewer decided on the
 * client's birth date and country beside the entry's, so a match whose evidence now points more to
 * the listed party (`strengthened`: the client now gives the listed person's year, an entry's
 * dates that disagreed are gone) is a finding to review again; evidence as weak as before, or
 * weaker, is still covered (a dismissal made before the kit weighed a country or a date is not
 * raised again for a mismatch). Before, a resubmission changing only the date of birth to the
 * listed person's kept the dismissal, and the client was approved (`screening-evidence` HTTP suite).
 */
export const dismissalCovers = (hit: ScreeningHit, match: ScreeningMatch): boolean =>
  isDismissed(hit) &&
  sameFinding(hit, match) &&
  !strengthened(hit.explanation?.birthDate, match.explanation?.birthDate) &&
  !strengthened(hit.explanation?.country, match.explanation?.country);

/**
 * Whether a match is recorded by a hit of the client already: an open or confirmed hit of the same
 * finding, or a dismissed one that still covers it (`dismissalCovers`).
 */
export const recordsFinding = (hit: ScreeningHit, match: ScreeningMatch): boolean =>
  isDismissed(hit) ? dismissalCovers(hit, match) : sameFinding(hit, match);

/** The subject's `country` when the payload gives one (evidence for the provider, never a filter). */
const countryOf = (code: string | null): Pick<ScreeningSubject, 'country'> =>
  code === null ? {} : { country: code };

/**
 * The subject's `birthDate` when the payload gives one (evidence for the provider, never a filter).
 * A client stored before the kit took dates of birth has none (undefined).
 */
const birthDateOf = (date: string | null | undefined): Pick<ScreeningSubject, 'birthDate'> =>
  date === null || date === undefined ? {} : { birthDate: date };

/** A name there is to screen (a stored optional name may be null or blank). */
const isScreenable = (name: string | null): name is string => name !== null && name.trim() !== '';

/**
 * The names a screening looks at, each with the JSON path of its payload field (as `parameterErrors`
 * and resubmission requirements name them): the individual's profile and employer; the company, its
 * representatives, directors and UBOs; the owner of every third-party bank account. Every name a
 * client brings is screened: a listed name in any of them holds the approval back.
 */
export const screeningSubjectsOf = (client: StoredClient): ScreeningSubject[] => {
  const subjects: ScreeningSubject[] = [];
  const profile = client.individualProfile;
  if (profile !== null) {
    subjects.push({
      field: 'profile',
      name: `${profile.firstName} ${profile.lastName}`,
      kind: 'PERSON',
      ...countryOf(profile.countryCode),
      ...birthDateOf(profile.dateOfBirth),
    });
    // The employer: the profile's country says where the person lives, not where the employer is.
    if (isScreenable(profile.companyName)) {
      subjects.push({ field: 'profile.companyName', name: profile.companyName, kind: 'COMPANY' });
    }
  }
  if (client.company !== null)
    subjects.push({
      field: 'company',
      name: client.company.name,
      kind: 'COMPANY',
      ...countryOf(client.company.registeredAddressCountryCode),
    });
  for (const [index, person] of (client.companyRepresentatives ?? []).entries()) {
    subjects.push({
      field: `representatives[${index}]`,
      name: `${person.firstName} ${person.lastName}`,
      kind: 'PERSON',
      ...birthDateOf(person.dateOfBirth),
    });
  }
  const officers = client.companyDirectorsAndUbos;
  for (const [index, director] of (officers?.directors ?? []).entries()) {
    subjects.push({
      field: `companyDirectorsAndUbos.directors[${index}]`,
      name: director.name,
      kind: 'PERSON',
      ...birthDateOf(director.dateOfBirth),
    });
  }
  for (const [index, ubo] of (officers?.ubos ?? []).entries()) {
    subjects.push({
      field: `companyDirectorsAndUbos.ubos[${index}]`,
      name: ubo.name,
      ...(ubo.typeOfPerson === 'LEGAL'
        ? { kind: 'COMPANY' as const }
        : { kind: 'PERSON' as const, ...birthDateOf(ubo.dateOfBirth) }),
    });
  }
  for (const [index, account] of client.bankAccounts.entries()) {
    const owner = account.thirdPartyBankAccountOwnerName;
    if (account.type !== 'THIRD_PARTY' || !isScreenable(owner)) continue;
    subjects.push({
      field: `bankAccounts[${index}].thirdPartyBankAccountOwnerName`,
      name: owner,
      // The payload does not say whether the owner is a person or a company.
      kind: 'PERSON_OR_COMPANY',
      ...countryOf(account.thirdPartyBankAccountOwnerCountryCode),
    });
  }
  return subjects;
};

/** The hit's copy of the provider's explanation (null when it gave none). */
const explanationOf = ({ explanation }: ScreeningMatch): ScreeningHit['explanation'] =>
  explanation === undefined
    ? null
    : {
        summary: explanation.summary,
        tokens: explanation.tokens.map((token) => ({ ...token })),
        unmatchedSubject: [...explanation.unmatchedSubject],
        unmatchedListed: [...explanation.unmatchedListed],
        country:
          explanation.country === undefined
            ? null
            : { ...explanation.country, listed: [...explanation.country.listed] },
        birthDate:
          explanation.birthDate === undefined
            ? null
            : { ...explanation.birthDate, listed: [...explanation.birthDate.listed] },
      };

/** The hit's copy of the listed entry (null when the provider gave none). */
const entryOf = ({ entry }: ScreeningMatch): ScreeningHit['entry'] =>
  entry === undefined
    ? null
    : {
        name: entry.name,
        aliases: [...entry.aliases],
        datasets: [...entry.datasets],
        countries: [...entry.countries],
        birthDates: [...entry.birthDates],
        schema: entry.schema ?? null,
      };

/** A provider's match as the client's hit `id`, unresolved. */
export const screeningHitOf = (match: ScreeningMatch, id: string): ScreeningHit => ({
  id,
  field: match.field,
  name: match.name,
  listName: match.listName,
  matchedName: match.matchedName,
  score: match.score,
  targetId: match.targetId,
  explanation: explanationOf(match),
  entry: entryOf(match),
  resolution: null,
});

/**
 * The screening once the provider answered: every match a hit, unresolved, except a finding of a
 * hit in `decided` (the pending screening's decided hits, `rescreening`) that a dismissal covers or
 * that was confirmed, recorded as that hit: its id (a new one where two fields of the client bear
 * the name) and its resolution. A confirmed hit no match names again is kept as it is
 * (before, a resubmission under a name the list misses cleared it: `screening-evidence` HTTP suite).
 */
export const completedScreening = (
  matches: readonly ScreeningMatch[],
  at: string,
  newId: () => string,
  decided: readonly ScreeningHit[] = [],
): Screening => {
  const used = new Set<string>();
  const hits = matches.map((match): ScreeningHit => {
    const before = decided.find((hit) => isDecided(hit) && recordsFinding(hit, match));
    if (before === undefined) return screeningHitOf(match, newId());
    if (!used.has(before.id) && before.field === match.field) {
      used.add(before.id);
      return before;
    }
    return { ...screeningHitOf(match, newId()), resolution: before.resolution };
  });
  hits.push(...decided.filter((hit) => isConfirmed(hit) && !used.has(hit.id)));
  return { status: hits.length === 0 ? 'CLEAR' : 'POSSIBLE_MATCH', screenedAt: at, hits };
};

/**
 * Whether the screening lets the client be approved: none configured, or done with every hit
 * dismissed. Pending, failed, an open or a confirmed hit all hold the approval back.
 */
export const screeningAllowsApproval = (screening: Screening | null): boolean =>
  screening === null ||
  ((screening.status === 'CLEAR' || screening.status === 'POSSIBLE_MATCH') &&
    screening.hits.every((hit) => hit.resolution?.decision === 'DISMISSED'));

/**
 * The path of one hit in the trail, by its id (RFC 9535 filter): an index names another hit once
 * the client is screened again.
 */
export const screeningHitPath = (hitId: string): string => `screening.hits[?@.id=='${hitId}']`;

/**
 * What a write of the screening changed, for the trail: its status and time, and each hit added,
 * removed or decided, whole (its id, the name screened, the list and listed name, the resolution),
 * at its path by id.
 */
export const screeningAuditChanges = (before: Screening | null, after: Screening | null): AuditChange[] => {
  const changes: AuditChange[] = [];
  const status = { before: before?.status ?? null, after: after?.status ?? null };
  if (status.before !== status.after) changes.push({ path: 'screening.status', ...status });
  const screenedAt = { before: before?.screenedAt ?? null, after: after?.screenedAt ?? null };
  if (screenedAt.before !== screenedAt.after) changes.push({ path: 'screening.screenedAt', ...screenedAt });
  const afterById = new Map((after?.hits ?? []).map((hit) => [hit.id, hit]));
  const beforeIds = new Set<string>();
  for (const hit of before?.hits ?? []) {
    beforeIds.add(hit.id);
    const next = afterById.get(hit.id) ?? null;
    if (JSON.stringify(hit) !== JSON.stringify(next)) {
      changes.push({ path: screeningHitPath(hit.id), before: hit, after: next });
    }
  }
  for (const hit of after?.hits ?? []) {
    if (!beforeIds.has(hit.id)) changes.push({ path: screeningHitPath(hit.id), before: null, after: hit });
  }
  return changes;
};
