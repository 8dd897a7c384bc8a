import { randomUUID } from 'node:crypto';
import type { DocumentIndex, DocumentRecord } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type DocumentIndexInspector = {
  /** The record as the backend holds it, read directly, or null. */
  readDocumentRecord(key: string): Promise<DocumentRecord | null>;
};

export type DocumentIndexContractFixture = Teardown & {
  readonly documents: DocumentIndex;
  readonly inspect: DocumentIndexInspector;
  /**
   * Makes the client a record may point at, for backends whose index references clients (a foreign
   * key). Called once per client id before its records are inserted.
   */
  readonly prepareClient?: (client: { clientId: string; managerId: string }) => Promise<void>;
};

export type DocumentIndexContractOptions = {
  readonly name: string;
  /** Called once per test; ids are random, so a shared backend works. */
  readonly setup: () => Promise<DocumentIndexContractFixture>;
};

const byKey = (a: DocumentRecord, b: DocumentRecord) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** DocumentIndex (core/src/ports/document-index.ts): which client each permanent document belongs to. */
export const runDocumentIndexContract = ({ name, setup }: DocumentIndexContractOptions): void => {
  const recordsFor = async (
    fixture: DocumentIndexContractFixture,
    managerId: string,
    filenames: readonly string[],
  ): Promise<DocumentRecord[]> => {
    const clientId = randomUUID();
    await fixture.prepareClient?.({ clientId, managerId });
    return filenames.map((filename, i) => ({
      key: `${randomUUID()}_${filename}`,
      clientId,
      managerId,
      filename,
      size: 1000 + i,
      storedAt: new Date(Date.UTC(2031, 0, 1, 12, i)).toISOString(),
    }));
  };

  describe(`DocumentIndex contract: ${name}`, () => {
    it('stores every record of insertMany as given', async () => {
      const fixture = await openFixture(setup);
      const records = await recordsFor(fixture, randomUUID(), ['passport.pdf', 'relevé bancaire #3.pdf']);
      await expectOk(fixture.documents.insertMany(records));
      for (const record of records) {
        expect(await fixture.inspect.readDocumentRecord(record.key)).toEqual(record);
      }
    });

    it('names the indexed keys among any keys, whoever owns them (the orphan sweep)', async () => {
      const fixture = await openFixture(setup);
      const ofA = await recordsFor(fixture, randomUUID(), ['a.pdf', 'b.pdf']);
      const ofB = await recordsFor(fixture, randomUUID(), ['c.pdf']);
      await expectOk(fixture.documents.insertMany([...ofA, ...ofB]));
      const unknown = `${randomUUID()}_orphan.pdf`;
      const found = await expectOk(
        fixture.documents.findIndexedKeys([unknown, ...[...ofA, ...ofB].map((record) => record.key)]),
      );
      expect([...found].sort()).toEqual([...ofA, ...ofB].map((record) => record.key).sort());
      expect(await expectOk(fixture.documents.findIndexedKeys([]))).toEqual([]);
      expect(await expectOk(fixture.documents.findIndexedKeys([unknown]))).toEqual([]);
    });

    it('accepts an empty batch', async () => {
      const fixture = await openFixture(setup);
      await expectOk(fixture.documents.insertMany([]));
      expect(await expectOk(fixture.documents.findByKeys(randomUUID(), []))).toEqual([]);
    });

    it("finds a manager's documents by key, leaving out unknown keys and other managers' documents", async () => {
      const fixture = await openFixture(setup);
      const managerA = randomUUID();
      const managerB = randomUUID();
      const ofA = [
        ...(await recordsFor(fixture, managerA, ['a1.pdf', 'a2.pdf'])),
        ...(await recordsFor(fixture, managerA, ['a3 other client.pdf'])),
      ];
      const ofB = await recordsFor(fixture, managerB, ['b1.pdf']);
      await expectOk(fixture.documents.insertMany([...ofA, ...ofB]));
      const unknownKey = `${randomUUID()}_a1.pdf`;
      const keys = [...ofA, ...ofB].map((r) => r.key).concat(unknownKey);

      const foundByA = await expectOk(fixture.documents.findByKeys(managerA, keys));
      expect([...foundByA].sort(byKey)).toEqual([...ofA].sort(byKey));
      const foundByB = await expectOk(fixture.documents.findByKeys(managerB, keys));
      expect(foundByB).toEqual(ofB);
      expect(await expectOk(fixture.documents.findByKeys(randomUUID(), keys))).toEqual([]);
      expect(await expectOk(fixture.documents.findByKeys(managerA, [unknownKey]))).toEqual([]);
    });
  });
};
