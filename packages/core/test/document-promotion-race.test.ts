import { createMemoryAdapters } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import type { DocumentStorage } from '../src/adapter.js';
import {
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
  principalKey,
} from '../src/index.js';
import { aManager } from './support/memory-kit.js';

/**
 * The file that was checked is the file that is moved. A re-upload under the same name
 * between the check (size, emptiness, expiry) and the copy must not slip through the checks, and a
 * re-upload after the copy must not be deleted by the promotion's cleanup.
 */
const kitWithRaces = () => {
  const adapters = createMemoryAdapters({ clock: createControllableClock(new Date('2026-03-01T09:00:00Z')) });
  let afterStat: (() => void) | null = null;
  let afterCopy: (() => void) | null = null;
  const storage: DocumentStorage = {
    ...adapters.documentStorage,
    statTemporary: (owner, filename) =>
      adapters.documentStorage.statTemporary(owner, filename).map((file) => {
        afterStat?.();
        afterStat = null;
        return file;
      }),
    copyToPermanent: (items) =>
      adapters.documentStorage.copyToPermanent(items).andTee(() => {
        afterCopy?.();
        afterCopy = null;
      }),
  };
  const kit = createOnboardingKit({ ...adapters, documentStorage: storage });
  return {
    kit,
    adapters,
    onNextStat: (run: () => void) => (afterStat = run),
    onNextCopy: (run: () => void) => (afterCopy = run),
  };
};

describe('a file uploaded again while a create uses it', () => {
  it('between the check and the copy: 400 at the field, nothing copied, the new upload kept', async () => {
    const { kit, adapters, onNextStat } = kitWithRaces();
    const manager = aManager();
    const owner = principalKey(manager);
    adapters.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array([1, 2, 3]));
    // An empty file replaces the checked one: it must not be promoted.
    onNextStat(() => adapters.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array(0)));
    const refused = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrapErr();
    expect(refused).toEqual({
      type: 'ValidationFailed',
      reason: 'Some documents changed while they were being used',
      parameterErrors: {
        'profile.idDocuments[0]': [
          'File "passport.pdf" was uploaded again or removed while this request ran: send the request again',
        ],
      },
    });
    expect(adapters.testing.listDocumentKeys()).toEqual([]);
    expect(adapters.testing.readTemporaryFile(owner, 'passport.pdf')).toEqual(new Uint8Array(0));
  });

  it('after the copy: the client is created from the checked file, and the new upload stays', async () => {
    const { kit, adapters, onNextCopy } = kitWithRaces();
    const manager = aManager();
    const owner = principalKey(manager);
    adapters.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array([1, 2, 3]));
    onNextCopy(() => adapters.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array([9, 9])));
    const created = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const [key] = created.individualProfile?.idDocuments ?? [];
    expect(adapters.testing.readDocument(key ?? '')).toEqual(new Uint8Array([1, 2, 3]));
    expect(adapters.testing.readTemporaryFile(owner, 'passport.pdf')).toEqual(new Uint8Array([9, 9]));
  });
});
