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
    return screeningKeysOfWords(named.length > 0 ? named : words);
  };
  // Every reading the matcher screens (`DeepakIyer` both ways, `S0k0l0v` as it reads to the eye).
  const others = otherReadings(name);
  return others.length === 0 ? keysOf(name) : [...new Set([name, ...others].flatMap(keysOf))];
};
