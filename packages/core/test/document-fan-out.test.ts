import { createMemoryAdapters } from '@onboarding-kit/memory';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { type DocumentStorage, MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD } from '../src/adapter.js';
import {
  createControllableClock,
  createOnboardingKit,
  exampleEntityPayload,
  principalKey,
} from '../src/index.js';
import { aManager } from './support/memory-kit.js';

/** What one payload can make the kit do to its storage is bounded. */

const names = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}.pdf`);

/** The memory storage, counting how many `statTemporary` calls are in flight at once. */
const measuredStorage = (storage: DocumentStorage) => {
  let inFlight = 0;
  let maxInFlight = 0;
  let calls = 0;
  const measured: DocumentStorage = {
    ...storage,
    statTemporary: (owner, filename) => {
      calls += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Ends on a later turn of the event loop (no time waited), so the calls overlap.
      const delayed = new Promise<void>((resolve) => setImmediate(resolve));
      return ResultAsync.fromSafePromise(delayed)
        .andThen(() => storage.statTemporary(owner, filename))
        .map((file) => {
          inFlight -= 1;
          return file;
        });
    },
  };
  return { measured, maxInFlight: () => maxInFlight, calls: () => calls };
};

const kitWithMeasuredStorage = () => {
  const adapters = createMemoryAdapters({ clock: createControllableClock(new Date('2026-03-01T09:00:00Z')) });
  const storage = measuredStorage(adapters.documentStorage);
  const kit = createOnboardingKit({ ...adapters, documentStorage: storage.measured });
  return { kit, adapters, storage };
};

describe('documents named by one payload', () => {
  it(`more than ${MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD} distinct files → 400 at each reference past the bound, and no storage call`, async () => {
    const { kit, storage } = kitWithMeasuredStorage();
    const payload = exampleEntityPayload({
      turnoverDocuments: names('turnover', 50),
      lastTaxNoticeDocuments: names('tax', 50),
      proofOfIncorporationDocuments: names('incorporation', 50),
      memorandumOfAssociationDocuments: names('memorandum', 50),
      // The 201st distinct name, and a repeat of an earlier one (not counted twice).
      registryOfDirectorsAndShareholdersDocuments: ['registry.pdf', 'tax-3.pdf'],
    });
    const refused = (await kit.clients.createEntity(aManager(), payload))._unsafeUnwrapErr();
    expect(refused).toEqual({
      type: 'ValidationFailed',
      reason: 'The payload names too many documents',
      parameterErrors: {
        'company.registryOfDirectorsAndShareholdersDocuments[0]': [
          `A payload may name at most ${MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD} distinct files`,
        ],
      },
    });
    expect(storage.calls()).toBe(0);
  });

  it(`exactly ${MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD} distinct files are all checked, at most 16 at a time, and used`, async () => {
    const { kit, adapters, storage } = kitWithMeasuredStorage();
    const manager = aManager();
    const documents = {
      turnoverDocuments: names('turnover', 50),
      lastTaxNoticeDocuments: names('tax', 50),
      proofOfIncorporationDocuments: names('incorporation', 50),
      memorandumOfAssociationDocuments: names('memorandum', 50),
    };
    for (const filename of Object.values(documents).flat()) {
      adapters.testing.putTemporaryFile(principalKey(manager), filename, new Uint8Array([1, 2, 3]));
    }
    const created = (
      await kit.clients.createEntity(manager, exampleEntityPayload(documents))
    )._unsafeUnwrap();
    expect(created.company?.turnoverDocuments).toHaveLength(50);
    expect(adapters.testing.listDocumentKeys()).toHaveLength(MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD);
    expect(storage.calls()).toBe(MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD);
    expect(storage.maxInFlight()).toBeLessThanOrEqual(16);
    expect(storage.maxInFlight()).toBeGreaterThan(1);
  });
});
