import { randomBytes, randomUUID } from 'node:crypto';
import {
  type DocumentStorage,
  documentKeyFor,
  type PermanentDocumentPage,
  type PresignedUpload,
  type StorageUnavailable,
  type TemporaryFile,
  type TemporaryStorageFull,
} from '@onboarding-kit/core/adapter';
import type { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type DocumentStorageInspector = {
  /** The bytes under a permanent key, read directly from the backend, or null. */
  readPermanent(key: string): Promise<Uint8Array | null>;
  /** The bytes of an owner's temporary file, read directly from the backend, or null. */
  readTemporary(owner: string, filename: string): Promise<Uint8Array | null>;
};

export type DocumentStorageContractFixture = Teardown & {
  readonly storage: DocumentStorage;
  /**
   * Uploads through a presigned upload the storage itself issued (`storage.presignUpload`), the way
   * a browser would: an HTTP PUT to the URL with its headers (or a form POST of its fields and the
   * file), or the endpoint behind the URL.
   */
  putTemporaryFile(owner: string, filename: string, bytes: Uint8Array): Promise<void>;
  /** Fetches a presigned download URL: the body and the attachment filename it is served under. */
  download(url: string): Promise<{ body: Uint8Array; filename: string }>;
  readonly inspect: DocumentStorageInspector;
};

/** The per-owner bound of the temporary area a setup builds its storage with (the tests of the bound pass small ones). */
export type TemporaryAreaBoundOptions = {
  readonly maxTemporaryFilesPerOwner: number;
  readonly maxTemporaryBytesPerOwner: number;
};

export type DocumentStorageContractOptions = {
  readonly name: string;
  /**
   * Called once per test; owners and keys are random, so a shared bucket works. With `bound`, the
   * storage must keep that bound and `putTemporaryFile` must upload through the storage's own
   * links, refused as the storage refuses them (its size policy, its quota).
   */
  readonly setup: (bound?: TemporaryAreaBoundOptions) => Promise<DocumentStorageContractFixture>;
  /**
   * How many files the listing test uploads to one owner (default 1,200: above the 1,000 a
   * single S3 listing page returns, so paging is exercised).
   */
  readonly manyFiles?: number;
  /**
   * How far `uploadedAt` may be from the test's own clock, in ms (default 5 minutes). The setup's
   * storage must stamp uploads with real time.
   */
  readonly uploadedAtToleranceMs?: number;
};

/** Names that break naive URL, header or key handling: they must come back byte for byte. */
export const awkwardFilenames = [
  'résumé final.pdf',
  '履歴書 2024.pdf',
  'a+b=c.pdf',
  '100% sure.pdf',
  'tag #1.pdf',
  'say "hi" & it\'s fine.pdf',
  'semi;colon,comma.pdf',
  'emoji 📄.png',
  '  inner  spaces.txt',
  'percent%20encoded-looking.pdf',
  'question?mark.pdf',
] as const;

/** One upload link (`presignUploads` of one name): what most tests need. */
export const presignOne = (
  storage: DocumentStorage,
  owner: string,
  filename: string,
  expiresAt: Date,
): ResultAsync<PresignedUpload, StorageUnavailable | TemporaryStorageFull> =>
  storage.presignUploads(owner, [filename], expiresAt).map(([upload]) => {
    if (upload === undefined) throw new Error(`no upload link for ${filename}`);
    return upload;
  });

const newOwner = () => `manager:${randomUUID()}`;
const bytesOf = (size: number) => new Uint8Array(randomBytes(size));
const everyByteValue = () => Uint8Array.from({ length: 512 }, (_, i) => i % 256);

/** Runs `task` over `items`, at most `concurrency` at a time. */
const forEachLimited = async <T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
) => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
};

/** DocumentStorage (core/src/ports/document-storage.ts, decisions §4). */
export const runDocumentStorageContract = ({
  name,
  setup,
  manyFiles = 1_200,
  uploadedAtToleranceMs = 5 * 60_000,
}: DocumentStorageContractOptions): void => {
  /** The promotion item of `filename` as it is now (its current version), the way core builds it. */
  const itemOf = async (
    fixture: { storage: DocumentStorage },
    owner: string,
    filename: string,
    key: string,
  ) => {
    const file = await expectOk(fixture.storage.statTemporary(owner, filename));
    if (file === null) throw new Error(`${filename} is not in temporary storage`);
    return { owner, filename, key, version: file.version };
  };
  const expectRecentUpload = (file: TemporaryFile | undefined | null, filename: string, size: number) => {
    expect(file).toMatchObject({ filename, size });
    expect(file?.uploadedAt).toBeInstanceOf(Date);
    const uploadedAt = file?.uploadedAt.getTime() ?? Number.NaN;
    expect(Math.abs(uploadedAt - Date.now())).toBeLessThan(uploadedAtToleranceMs);
  };
  const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);

  describe(`DocumentStorage contract: ${name}`, () => {
    it('presigns an upload per owner and filename: a PUT, or a POST of fields and the file', async () => {
      const { storage } = await openFixture(setup);
      const owner = newOwner();
      const upload = await expectOk(presignOne(storage, owner, 'passport.pdf', inFifteenMinutes()));
      expect(['PUT', 'POST']).toContain(upload.method);
      expect(() => new URL(upload.url)).not.toThrow();
      expect(typeof upload.headers).toBe('object');
      // A POST goes to the bucket's address: the fields (the key, the signed policy) name the file.
      if (upload.method === 'POST') expect(Object.keys(upload.fields).length).toBeGreaterThan(0);
      const other = await expectOk(presignOne(storage, owner, 'other.pdf', inFifteenMinutes()));
      expect(JSON.stringify(other)).not.toBe(JSON.stringify(upload));
    });

    it('lists an uploaded file with its size and upload time, and stats it', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const bytes = everyByteValue();
      await fixture.putTemporaryFile(owner, 'passport.pdf', bytes);

      const listed = await expectOk(fixture.storage.listTemporary(owner));
      expect(listed).toHaveLength(1);
      expectRecentUpload(listed[0], 'passport.pdf', bytes.length);
      const stat = await expectOk(fixture.storage.statTemporary(owner, 'passport.pdf'));
      expectRecentUpload(stat, 'passport.pdf', bytes.length);
      expect(await fixture.inspect.readTemporary(owner, 'passport.pdf')).toEqual(bytes);
    });

    it('answers null for a missing file and an empty list for an owner without uploads', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      expect(await expectOk(fixture.storage.statTemporary(owner, 'missing.pdf'))).toBeNull();
      expect(await expectOk(fixture.storage.listTemporary(owner))).toEqual([]);
      await fixture.putTemporaryFile(owner, 'present.pdf', bytesOf(10));
      expect(await expectOk(fixture.storage.statTemporary(owner, 'missing.pdf'))).toBeNull();
      expect(await expectOk(fixture.storage.statTemporary(owner, 'present.pd'))).toBeNull();
    });

    it('keeps an empty file, with size 0', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'empty.pdf', new Uint8Array(0));
      expectRecentUpload(await expectOk(fixture.storage.statTemporary(owner, 'empty.pdf')), 'empty.pdf', 0);
    });

    it('replaces a file uploaded again under the same name', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'statement.pdf', bytesOf(300));
      const second = bytesOf(120);
      await fixture.putTemporaryFile(owner, 'statement.pdf', second);

      const listed = await expectOk(fixture.storage.listTemporary(owner));
      expect(listed.map((f) => [f.filename, f.size])).toEqual([['statement.pdf', 120]]);
      expect(await fixture.inspect.readTemporary(owner, 'statement.pdf')).toEqual(second);
    });

    it("keeps owners apart: nobody sees or stats another owner's files", async () => {
      const fixture = await openFixture(setup);
      const managerOwner = newOwner();
      const clientOwner = `client:${randomUUID()}`;
      const ofManager = bytesOf(40);
      const ofClient = bytesOf(50);
      await fixture.putTemporaryFile(managerOwner, 'shared name.pdf', ofManager);
      await fixture.putTemporaryFile(managerOwner, 'manager only.pdf', bytesOf(5));
      await fixture.putTemporaryFile(clientOwner, 'shared name.pdf', ofClient);

      const names = async (owner: string) =>
        (await expectOk(fixture.storage.listTemporary(owner))).map((f) => f.filename).sort();
      expect(await names(managerOwner)).toEqual(['manager only.pdf', 'shared name.pdf']);
      expect(await names(clientOwner)).toEqual(['shared name.pdf']);
      expect(await expectOk(fixture.storage.statTemporary(clientOwner, 'manager only.pdf'))).toBeNull();
      expect(await fixture.inspect.readTemporary(managerOwner, 'shared name.pdf')).toEqual(ofManager);
      expect(await fixture.inspect.readTemporary(clientOwner, 'shared name.pdf')).toEqual(ofClient);
      // Owner strings that prefix one another stay apart too.
      expect(await names(managerOwner.slice(0, -1))).toEqual([]);
    });

    it('copies to permanent byte for byte, keeping the temporary file until it is deleted', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const passport = bytesOf(2_048);
      const proof = everyByteValue();
      await fixture.putTemporaryFile(owner, 'passport.pdf', passport);
      await fixture.putTemporaryFile(owner, 'proof.pdf', proof);
      const passportKey = documentKeyFor(randomUUID(), 'passport.pdf');
      const proofKey = documentKeyFor(randomUUID(), 'proof.pdf');

      await expectOk(
        fixture.storage.copyToPermanent([
          await itemOf(fixture, owner, 'passport.pdf', passportKey),
          await itemOf(fixture, owner, 'proof.pdf', proofKey),
        ]),
      );
      expect(await fixture.inspect.readPermanent(passportKey)).toEqual(passport);
      expect(await fixture.inspect.readPermanent(proofKey)).toEqual(proof);
      expect(await expectOk(fixture.storage.statTemporary(owner, 'passport.pdf'))).not.toBeNull();

      const used = await expectOk(fixture.storage.listTemporary(owner));
      await expectOk(
        fixture.storage.deleteTemporary(owner, [
          ...used.map(({ filename, version }) => ({ filename, version })),
          { filename: 'never uploaded.pdf', version: '"0"' },
        ]),
      );
      expect(await expectOk(fixture.storage.statTemporary(owner, 'passport.pdf'))).toBeNull();
      expect(await expectOk(fixture.storage.listTemporary(owner))).toEqual([]);
      expect(await fixture.inspect.readTemporary(owner, 'proof.pdf')).toBeNull();
      expect(await fixture.inspect.readPermanent(passportKey)).toEqual(passport);
    });

    it('copies only the version that was checked, and deletes only the version that was used', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'scan.pdf', bytesOf(100));
      const checked = await itemOf(fixture, owner, 'scan.pdf', documentKeyFor(randomUUID(), 'scan.pdf'));
      // Uploaded again (other bytes) between the check and the copy: the copy is refused.
      const second = everyByteValue();
      await fixture.putTemporaryFile(owner, 'scan.pdf', second);
      expect(await expectErr(fixture.storage.copyToPermanent([checked]))).toEqual({
        type: 'TemporaryFilesChanged',
        filenames: ['scan.pdf'],
      });
      expect(await fixture.inspect.readPermanent(checked.key)).toBeNull();
      // A source that is gone is refused alike.
      const gone = {
        owner,
        filename: 'gone.pdf',
        key: documentKeyFor(randomUUID(), 'gone.pdf'),
        version: checked.version,
      };
      expect(await expectErr(fixture.storage.copyToPermanent([gone]))).toEqual({
        type: 'TemporaryFilesChanged',
        filenames: ['gone.pdf'],
      });

      const current = await itemOf(fixture, owner, 'scan.pdf', documentKeyFor(randomUUID(), 'scan.pdf'));
      await expectOk(fixture.storage.copyToPermanent([current]));
      expect(await fixture.inspect.readPermanent(current.key)).toEqual(second);
      // Uploaded again after the copy: deleting the version used keeps the newer upload.
      const third = bytesOf(300);
      await fixture.putTemporaryFile(owner, 'scan.pdf', third);
      await expectOk(
        fixture.storage.deleteTemporary(owner, [{ filename: 'scan.pdf', version: current.version }]),
      );
      expect(await fixture.inspect.readTemporary(owner, 'scan.pdf')).toEqual(third);
      const newest = await itemOf(fixture, owner, 'scan.pdf', '');
      await expectOk(
        fixture.storage.deleteTemporary(owner, [{ filename: 'scan.pdf', version: newest.version }]),
      );
      expect(await fixture.inspect.readTemporary(owner, 'scan.pdf')).toBeNull();
    });

    it('lists the permanent area page by page, every document once, with when it was stored', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const names = ['p1.pdf', 'p2.pdf', 'p3.pdf', 'p4.pdf', 'p5.pdf'];
      const keys: string[] = [];
      for (const filename of names) {
        await fixture.putTemporaryFile(owner, filename, bytesOf(4));
        const key = documentKeyFor(randomUUID(), filename);
        await expectOk(fixture.storage.copyToPermanent([await itemOf(fixture, owner, filename, key)]));
        keys.push(key);
      }
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: PermanentDocumentPage = await expectOk(fixture.storage.listPermanent(after, 2));
        expect(page.documents.length).toBeLessThanOrEqual(2);
        // A page is given a `next` only when more follow: no empty page after the first.
        if (pages > 0) expect(page.documents.length).toBeGreaterThan(0);
        for (const document of page.documents) {
          seen.push(document.key);
          expect(Number.isNaN(document.storedAt.getTime())).toBe(false);
        }
        after = page.next;
        pages += 1;
      } while (after !== null && pages < 10_000);
      // Every document of this test once (other tests' documents may share the area).
      for (const key of keys) expect(seen.filter((listed) => listed === key)).toEqual([key]);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBeGreaterThanOrEqual(3);
    });

    it('removes permanent copies with deletePermanent, ignoring unknown keys', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'a.pdf', bytesOf(10));
      await fixture.putTemporaryFile(owner, 'b.pdf', bytesOf(11));
      const keyA = documentKeyFor(randomUUID(), 'a.pdf');
      const keyB = documentKeyFor(randomUUID(), 'b.pdf');
      await expectOk(
        fixture.storage.copyToPermanent([
          await itemOf(fixture, owner, 'a.pdf', keyA),
          await itemOf(fixture, owner, 'b.pdf', keyB),
        ]),
      );
      await expectOk(fixture.storage.deletePermanent([keyA, documentKeyFor(randomUUID(), 'unknown.pdf')]));
      expect(await fixture.inspect.readPermanent(keyA)).toBeNull();
      expect(await fixture.inspect.readPermanent(keyB)).not.toBeNull();
      await expectOk(fixture.storage.deletePermanent([]));
    });

    it('names the permanent keys that hold no object: never stored, deleted, or only temporary', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'kept.pdf', bytesOf(10));
      await fixture.putTemporaryFile(owner, 'removed.pdf', bytesOf(10));
      await fixture.putTemporaryFile(owner, 'empty.pdf', new Uint8Array(0));
      const kept = documentKeyFor(randomUUID(), 'kept.pdf');
      const removed = documentKeyFor(randomUUID(), 'removed.pdf');
      const empty = documentKeyFor(randomUUID(), 'empty.pdf');
      const never = documentKeyFor(randomUUID(), 'never.pdf');
      await expectOk(
        fixture.storage.copyToPermanent([
          await itemOf(fixture, owner, 'kept.pdf', kept),
          await itemOf(fixture, owner, 'removed.pdf', removed),
          await itemOf(fixture, owner, 'empty.pdf', empty),
        ]),
      );
      await expectOk(fixture.storage.deletePermanent([removed]));
      // A temporary file of that name is not a permanent document.
      const onlyTemporary = documentKeyFor(randomUUID(), 'kept.pdf');
      expect(
        await expectOk(fixture.storage.missingPermanent([kept, removed, empty, never, onlyTemporary])),
      ).toEqual([removed, never, onlyTemporary]);
      expect(await expectOk(fixture.storage.missingPermanent([kept, empty]))).toEqual([]);
      expect(await expectOk(fixture.storage.missingPermanent([]))).toEqual([]);
    });

    it('presigns a download that serves the original bytes under the original filename', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const bytes = bytesOf(4_096);
      await fixture.putTemporaryFile(owner, 'contract.pdf', bytes);
      const key = documentKeyFor(randomUUID(), 'contract.pdf');
      await expectOk(fixture.storage.copyToPermanent([await itemOf(fixture, owner, 'contract.pdf', key)]));

      const url = await expectOk(fixture.storage.presignDownload(key, 'contract.pdf', inFifteenMinutes()));
      expect(() => new URL(url)).not.toThrow();
      expect(await fixture.download(url)).toEqual({ body: bytes, filename: 'contract.pdf' });
    });

    it('keeps awkward filenames byte for byte through upload, listing, copy and download', async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const contents = new Map(awkwardFilenames.map((filename) => [filename, bytesOf(64)]));
      for (const [filename, bytes] of contents) await fixture.putTemporaryFile(owner, filename, bytes);

      const listed = await expectOk(fixture.storage.listTemporary(owner));
      expect(listed.map((f) => f.filename).sort()).toEqual([...awkwardFilenames].sort());
      for (const [filename, bytes] of contents) {
        expectRecentUpload(await expectOk(fixture.storage.statTemporary(owner, filename)), filename, 64);
        const key = documentKeyFor(randomUUID(), filename);
        await expectOk(fixture.storage.copyToPermanent([await itemOf(fixture, owner, filename, key)]));
        expect(await fixture.inspect.readPermanent(key)).toEqual(bytes);
        const url = await expectOk(fixture.storage.presignDownload(key, filename, inFifteenMinutes()));
        expect(await fixture.download(url)).toEqual({ body: bytes, filename });
      }
    });

    it('bounds the files one owner holds, upload links included: a batch past it is refused whole', async () => {
      const bound = { maxTemporaryFilesPerOwner: 3, maxTemporaryBytesPerOwner: 64 * 1024 * 1024 };
      const fixture = await openFixture(() => setup(bound));
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'a.pdf', bytesOf(10));
      await fixture.putTemporaryFile(owner, 'b.pdf', bytesOf(10));
      // A link not used yet holds its name as an upload does: c.pdf and d.pdf would make four.
      const full = await expectErr(
        fixture.storage.presignUploads(owner, ['c.pdf', 'd.pdf'], inFifteenMinutes()),
      );
      expect(full).toMatchObject({ type: 'TemporaryStorageFull', maxFiles: 3 });
      if (full.type !== 'TemporaryStorageFull') throw new Error('unreachable');
      expect(full.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(full.retryAfterSeconds).toBeLessThanOrEqual(24 * 60 * 60);
      // Nothing of the refused batch counts: one more name still fits, and a name held counts once.
      expect(
        await expectOk(fixture.storage.presignUploads(owner, ['a.pdf', 'c.pdf'], inFifteenMinutes())),
      ).toHaveLength(2);
      await fixture.putTemporaryFile(owner, 'c.pdf', bytesOf(10));
      await expect(fixture.putTemporaryFile(owner, 'e.pdf', bytesOf(10))).rejects.toThrow();
      expect(
        await expectOk(fixture.storage.presignUploads(owner, ['b.pdf'], inFifteenMinutes())),
      ).toHaveLength(1);
      // Another owner is not held back by this one.
      const other = newOwner();
      const links = await expectOk(
        fixture.storage.presignUploads(other, ['x.pdf', 'y.pdf', 'z.pdf'], inFifteenMinutes()),
      );
      expect(links).toHaveLength(3);
      expect((await expectOk(fixture.storage.listTemporary(owner))).map((f) => f.filename).sort()).toEqual([
        'a.pdf',
        'b.pdf',
        'c.pdf',
      ]);
    });

    it('holds no room for upload links that expired unused', async () => {
      const bound = { maxTemporaryFilesPerOwner: 2, maxTemporaryBytesPerOwner: 64 * 1024 * 1024 };
      const fixture = await openFixture(() => setup(bound));
      const owner = newOwner();
      const past = new Date(Date.now() - 60_000);
      await expectOk(fixture.storage.presignUploads(owner, ['old-1.pdf', 'old-2.pdf'], past));
      expect(
        await expectOk(fixture.storage.presignUploads(owner, ['new-1.pdf', 'new-2.pdf'], inFifteenMinutes())),
      ).toHaveLength(2);
    });

    it('bounds the bytes one owner holds: a link past them is refused, or the upload through it', async () => {
      const maxBytes = 1000;
      const bound = { maxTemporaryFilesPerOwner: 10, maxTemporaryBytesPerOwner: maxBytes };
      const fixture = await openFixture(() => setup(bound));
      const owner = newOwner();
      await fixture.putTemporaryFile(owner, 'a.pdf', bytesOf(600));
      // Six hundred more would pass the bound: the storage refuses the link (it holds the room its
      // links may take) or the upload (it counts bytes as they arrive).
      await expect(fixture.putTemporaryFile(owner, 'b.pdf', bytesOf(600))).rejects.toThrow();
      await expect(fixture.putTemporaryFile(owner, 'huge.pdf', bytesOf(maxBytes + 1))).rejects.toThrow();
      const held = await expectOk(fixture.storage.listTemporary(owner));
      expect(held.map((f) => f.filename)).toEqual(['a.pdf']);
      expect(held.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(maxBytes);
    });

    it(`lists every one of many files (${manyFiles}) of one owner`, async () => {
      const fixture = await openFixture(setup);
      const owner = newOwner();
      const filenames = Array.from({ length: manyFiles }, (_, i) => `scan ${String(i).padStart(5, '0')}.pdf`);
      await forEachLimited(filenames, 16, (filename) =>
        fixture.putTemporaryFile(owner, filename, bytesOf(8)),
      );

      const listed = await expectOk(fixture.storage.listTemporary(owner));
      expect(listed).toHaveLength(manyFiles);
      expect(new Set(listed.map((f) => f.filename))).toEqual(new Set(filenames));
    });
  });
};
