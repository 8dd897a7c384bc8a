import { randomUUID } from 'node:crypto';
import type { DocumentIndex, DocumentRecord } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type DocumentIndexInspector = {
  /** The record as the backend holds it, read directly, or null. */
  readDocumentRecord(key: string): Promise<DocumentRecord | null>;
  /** The claim on `upload` as the backend holds it (expired or not), or null. */
  readUploadClaim(upload: string): Promise<{ holder: string; expiresAt: Date } | null>;
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

    it("redaction replaces the file names of the client's documents, in key and filename, and no one else's", async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const [passport, statement] = await recordsFor(fixture, managerId, [
        'passport_jane_doe.pdf',
        'a_b.pdf',
      ]);
      const [kept] = await recordsFor(fixture, managerId, ['passport_jane_doe.pdf']);
      if (passport === undefined || statement === undefined || kept === undefined) throw new Error('records');
      const upload = randomUUID();
      await expectOk(fixture.documents.insertMany([{ ...passport, upload }, statement, kept]));
      await expectOk(fixture.documents.redactForClient(passport.clientId));
      await expectOk(fixture.documents.redactForClient(passport.clientId));
      const redacted = [passport, statement].map(
        (record): DocumentRecord => ({
          ...record,
          key: `${record.key.slice(0, 36)}_[redacted]`,
          filename: '[redacted]',
        }),
      );
      const oldKeys = [passport.key, statement.key];
      expect(await expectOk(fixture.documents.findIndexedKeys(oldKeys))).toEqual([]);
      for (const key of oldKeys) expect(await fixture.inspect.readDocumentRecord(key)).toBeNull();
      expect(
        [
          ...(await expectOk(
            fixture.documents.findByKeys(
              managerId,
              redacted.map((r) => r.key),
            ),
          )),
        ].sort(byKey),
      ).toEqual([{ ...(redacted[0] as DocumentRecord), upload }, redacted[1] as DocumentRecord].sort(byKey));
      expect(await fixture.inspect.readDocumentRecord(kept.key)).toEqual(kept);
      // The upload it was made from still makes no second document.
      await expectErr(fixture.documents.insertMany([{ ...kept, key: `${randomUUID()}_x.pdf`, upload }]));
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

    describe('claims on uploads (one upload, one command)', () => {
      const at = new Date(Date.UTC(2031, 0, 1, 12));
      const later = (ms: number) => new Date(at.getTime() + ms);
      // Core names an upload by a SHA-256; any distinct string will do here.
      const anUpload = () => randomUUID().replaceAll('-', '').repeat(2);
      const claimOf = (holder: string, uploads: string[], now = at) => ({
        holder,
        uploads,
        now,
        expiresAt: new Date(now.getTime() + 60_000),
      });

      it('20 parallel claims of one upload: exactly one holder gets it, the backend holds its claim', async () => {
        const fixture = await openFixture(setup);
        const upload = anUpload();
        const holders = Array.from({ length: 20 }, () => randomUUID());
        const refusals = await Promise.all(
          holders.map((holder) => expectOk(fixture.documents.claimUploads(claimOf(holder, [upload])))),
        );
        const winners = holders.filter((_, i) => refusals[i]?.length === 0);
        expect(winners).toHaveLength(1);
        expect(refusals.filter((refused) => refused.length === 1 && refused[0] === upload)).toHaveLength(19);
        expect(await fixture.inspect.readUploadClaim(upload)).toEqual({
          holder: winners[0],
          expiresAt: later(60_000),
        });
      });

      it('claims what is free, answers what is not, and the same holder may claim again', async () => {
        const fixture = await openFixture(setup);
        const [a, b, c] = [anUpload(), anUpload(), anUpload()];
        const first = randomUUID();
        const second = randomUUID();
        expect(await expectOk(fixture.documents.claimUploads(claimOf(first, [b])))).toEqual([]);
        expect(await expectOk(fixture.documents.claimUploads(claimOf(second, [a, b, c])))).toEqual([b]);
        expect((await fixture.inspect.readUploadClaim(a))?.holder).toBe(second);
        expect((await fixture.inspect.readUploadClaim(b))?.holder).toBe(first);
        expect((await fixture.inspect.readUploadClaim(c))?.holder).toBe(second);
        expect(await expectOk(fixture.documents.claimUploads(claimOf(first, [b])))).toEqual([]);
        expect(await expectOk(fixture.documents.claimUploads(claimOf(first, [])))).toEqual([]);
      });

      it("a release frees the holder's uploads at once, and only its own", async () => {
        const fixture = await openFixture(setup);
        const [a, b] = [anUpload(), anUpload()];
        const first = randomUUID();
        const second = randomUUID();
        await expectOk(fixture.documents.claimUploads(claimOf(first, [a])));
        await expectOk(fixture.documents.claimUploads(claimOf(second, [b])));
        // A holder names what it claimed; another holder's claim among them stays.
        await expectOk(fixture.documents.releaseUploads(first, [a, b]));
        expect(await fixture.inspect.readUploadClaim(a)).toBeNull();
        expect((await fixture.inspect.readUploadClaim(b))?.holder).toBe(second);
        expect(await expectOk(fixture.documents.claimUploads(claimOf(randomUUID(), [a, b])))).toEqual([b]);
        await expectOk(fixture.documents.releaseUploads(randomUUID(), []));
      });

      it('a claim its holder never ended (a crash) is taken over once expired, not before', async () => {
        const fixture = await openFixture(setup);
        const upload = anUpload();
        await expectOk(fixture.documents.claimUploads(claimOf(randomUUID(), [upload])));
        const next = randomUUID();
        expect(
          await expectOk(fixture.documents.claimUploads(claimOf(next, [upload], later(59_999)))),
        ).toEqual([upload]);
        expect(
          await expectOk(fixture.documents.claimUploads(claimOf(next, [upload], later(60_000)))),
        ).toEqual([]);
        expect((await fixture.inspect.readUploadClaim(upload))?.holder).toBe(next);
      });

      it('an upload a document was made from is refused for good, and makes no second document', async () => {
        const fixture = await openFixture(setup);
        const managerId = randomUUID();
        const upload = anUpload();
        const holder = randomUUID();
        await expectOk(fixture.documents.claimUploads(claimOf(holder, [upload])));
        const [record, second] = (await recordsFor(fixture, managerId, ['passport.pdf', 'passport.pdf'])).map(
          (r) => ({ ...r, upload }),
        );
        if (record === undefined || second === undefined) throw new Error('two records expected');
        await expectOk(fixture.documents.insertMany([record]));
        expect(await fixture.inspect.readDocumentRecord(record.key)).toEqual(record);
        expect(await expectOk(fixture.documents.findByKeys(managerId, [record.key]))).toEqual([record]);
        // Even to its own holder, even once every claim expired.
        expect(await expectOk(fixture.documents.claimUploads(claimOf(holder, [upload])))).toEqual([upload]);
        expect(
          await expectOk(fixture.documents.claimUploads(claimOf(randomUUID(), [upload], later(3_600_000)))),
        ).toEqual([upload]);
        // The last guard: a second document from the same upload is refused, and nothing of it kept.
        await expectErr(fixture.documents.insertMany([second]));
        expect(await fixture.inspect.readDocumentRecord(second.key)).toBeNull();
      });
    });
  });
};
