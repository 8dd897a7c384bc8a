import { transliterate } from 'transliteration';

/**
 * A name as it is compared: transliterated to Latin letters (Владимир → vladimir, José → jose,
 * Παπαδόπουλος → papadopoylos), lower-cased, with dots and apostrophes dropped (`S.A.` → `sa`,
 * `O'Brien` → `obrien`) and every other run of non-letters and non-digits one space.
 */
export const normalizeName = (name: string): string =>
  transliterate(name.normalize('NFKC'))
    .toLowerCase()
    .replace(/['.’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The tokens of a normalized name. */
export const nameTokens = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));
