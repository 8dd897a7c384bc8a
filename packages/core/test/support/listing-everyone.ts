import { okAsync } from 'neverthrow';
import type { ScreeningProvider, ScreeningSubject } from '../../src/adapter.js';

/**
 * A screening provider that lists every name it is asked about: each screening of a client has
 * one hit per subject, as the target `targetId` names (by default one per name).
 */
export const listingEveryone = (
  targetId: (subject: ScreeningSubject) => string = (subject) => `test-${subject.name}`,
): ScreeningProvider => ({
  screen: (subjects) =>
    okAsync(
      subjects.map((subject) => ({
        field: subject.field,
        name: subject.name,
        listName: 'Test list',
        matchedName: subject.name.toUpperCase(),
        score: 1,
        targetId: targetId(subject),
      })),
    ),
});
