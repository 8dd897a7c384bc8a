import { screeningKeysOfWords } from '@onboarding-kit/core/adapter';
import { foldLegalForms, isLegalForm } from './legal-forms.js';
import { nameWords, otherReadings } from './normalize-name.js';

/**
 * The keys under which the kit indexes a name for monitoring when it screens with this package's
 * list (`ScreeningProvider.nameKeys`): the kit's pairs of word sounds (`screeningKeysOfWords`),
 * made from the words as this package's matcher reads them (`nameWords`: transliterated from any
 * script, confusable letters folded), legal forms left out (`Siemens AG`, `Siemens
 * Aktiengesellschaft`). So a client written in Cyrillic is a candidate for a changed target
 * written in Latin letters, and the other way round.
 */
export const listNameKeys = (name: string): string[] => {
  const keysOf = (reading: string) => {
    const words = nameWords(reading);
    const named = foldLegalForms(words).filter((word) => !isLegalForm(word));
    return screeningKeysOfWords(named.length > 0 ? named : words, familyNameWords(reading));
  };
  // Every reading the matcher screens (`DeepakIyer` both ways, `S0k0l0v` as it reads to the eye).
  const others = otherReadings(name);
  return others.length === 0 ? keysOf(name) : [...new Set([name, ...others].flatMap(keysOf))];
};

/** A word written in capitals only, two letters at least (`PUTIN`); a word with a small letter. */
const CAPITALS = /^(?=(?:\P{L}*\p{Lu}){2})[\p{Lu}\p{M}'’.-]+$/u;
const SMALL_LETTER = /\p{Ll}/u;

/**
 * The words a name marks as its family name (normalized), when it marks one: written in capitals
 * among words that are not (`PUTIN Vladimir`, `Vladimir PUTIN`, lists' convention), or, in a name
 * with a comma, the words before it (`Putin, Vladimir`). A person's name only: a company's name
 * in capitals is no family name, but its keys are the same with or without this.
 */
export const familyNameWords = (name: string): string[] => {
  const comma = name.indexOf(',');
  if (comma > 0) return nameWords(name.slice(0, comma));
  const written = name.split(/\s+/u).filter((word) => word !== '');
  if (!written.some((word) => SMALL_LETTER.test(word))) return [];
  return written.filter((word) => CAPITALS.test(word)).flatMap(nameWords);
};
