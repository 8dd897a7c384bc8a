import { describe, expect, it } from 'vitest';
import { exampleIndividualPayload, principalKey } from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

/**
 * An uploaded file is used by at most one command: parallel creates naming one upload make one
 * client and one permanent copy; the others are refused at the field, and copy nothing.
 */
describe('one upload, many parallel creates (memory)', () => {
  it('20 parallel creates naming one file: one 201, 19 refusals at the field, one permanent copy', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => kit.clients.createIndividual(manager, payload)),
    );
    const created = outcomes.filter((outcome) => outcome.isOk());
    const refused = outcomes.flatMap((outcome) => (outcome.isErr() ? [outcome.error] : []));
    console.log(`memory: ${created.length} created, ${refused.length} refused`);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const error of refused) {
      expect(error).toMatchObject({
        type: 'ValidationFailed',
        parameterErrors: { 'profile.idDocuments[0]': [expect.stringContaining('passport.pdf')] },
      });
    }
    expect(adapters.testing.listDocumentKeys()).toHaveLength(1);
    expect(adapters.testing.readTemporaryFile(principalKey(manager), 'passport.pdf')).toBeNull();
  });
});
