import { describe, expect, it } from 'vitest';
import { documentKeyFor } from '../src/adapter.js';
import { exampleIndividualPayload } from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const hour = 60 * 60_000;

/**
 * A permanent copy that no client references (its command crashed between the copy
 * and the commit) is removed once older than the grace period; referenced documents never are.
 */
describe('kit.documents.sweepOrphanDocuments', () => {
  it('removes unreferenced documents older than the grace period, and nothing else', async () => {
    const { kit, adapters, clock, upload } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const [referenced] = client.individualProfile?.idDocuments ?? [];

    // What a crash between copy and commit leaves: a copy with no index row.
    upload(manager, 'orphan.pdf');
    const orphanKey = documentKeyFor(crypto.randomUUID(), 'orphan.pdf');
    const stat = (
      await adapters.documentStorage.statTemporary(`manager:${manager.managerId}`, 'orphan.pdf')
    )._unsafeUnwrap();
    (
      await adapters.documentStorage.copyToPermanent([
        {
          owner: `manager:${manager.managerId}`,
          filename: 'orphan.pdf',
          key: orphanKey,
          version: stat?.version ?? '',
        },
      ])
    )._unsafeUnwrap();

    // Younger than the grace period (24 h by default): kept, it may be a commit still in flight.
    clock.advance(23 * hour);
    expect((await kit.documents.sweepOrphanDocuments())._unsafeUnwrap()).toBe(0);
    expect(adapters.testing.listDocumentKeys().sort()).toEqual([referenced, orphanKey].sort());

    clock.advance(2 * hour);
    expect((await kit.documents.sweepOrphanDocuments({ pageSize: 1 }))._unsafeUnwrap()).toBe(1);
    expect(adapters.testing.listDocumentKeys()).toEqual([referenced]);
    expect((await kit.documents.sweepOrphanDocuments())._unsafeUnwrap()).toBe(0);
    // The referenced document still downloads.
    expect((await kit.documents.requestDownloadBatch(manager, { filenames: [referenced] })).isOk()).toBe(
      true,
    );
  });

  it('walks every page: many orphans among many documents', async () => {
    const { kit, adapters, clock, upload } = createMemoryKit();
    const manager = aManager();
    const owner = `manager:${manager.managerId}`;
    const orphans: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      upload(manager, `file-${i}.pdf`);
      const version =
        (await adapters.documentStorage.statTemporary(owner, `file-${i}.pdf`))._unsafeUnwrap()?.version ?? '';
      const key = documentKeyFor(crypto.randomUUID(), `file-${i}.pdf`);
      (
        await adapters.documentStorage.copyToPermanent([{ owner, filename: `file-${i}.pdf`, key, version }])
      )._unsafeUnwrap();
      orphans.push(key);
    }
    clock.advance(2 * hour);
    expect((await kit.documents.sweepOrphanDocuments({ graceMs: hour, pageSize: 4 }))._unsafeUnwrap()).toBe(
      25,
    );
    expect(adapters.testing.listDocumentKeys()).toEqual([]);
  });

  it('refuses a grace period under one hour, and a page size that is not 1..10,000, deleting nothing', async () => {
    const { kit, adapters, clock, upload } = createMemoryKit();
    const manager = aManager();
    const owner = `manager:${manager.managerId}`;
    upload(manager, 'orphan.pdf');
    const version =
      (await adapters.documentStorage.statTemporary(owner, 'orphan.pdf'))._unsafeUnwrap()?.version ?? '';
    const key = documentKeyFor(crypto.randomUUID(), 'orphan.pdf');
    (
      await adapters.documentStorage.copyToPermanent([{ owner, filename: 'orphan.pdf', key, version }])
    )._unsafeUnwrap();
    clock.advance(30 * 60_000);
    for (const graceMs of [0, -1, hour - 1, Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]) {
      const refused = (await kit.documents.sweepOrphanDocuments({ graceMs }))._unsafeUnwrapErr();
      expect(refused, String(graceMs)).toMatchObject({
        type: 'ValidationFailed',
        parameterErrors: { graceMs: [expect.stringContaining('at least 3600000')] },
      });
    }
    for (const pageSize of [0, 1.5, 10_001, Number.NaN]) {
      const refused = (await kit.documents.sweepOrphanDocuments({ pageSize }))._unsafeUnwrapErr();
      expect(refused, String(pageSize)).toMatchObject({
        type: 'ValidationFailed',
        parameterErrors: { pageSize: [expect.stringContaining('1 to 10000')] },
      });
    }
    expect(adapters.testing.listDocumentKeys()).toEqual([key]);
    clock.advance(hour);
    expect((await kit.documents.sweepOrphanDocuments({ graceMs: hour }))._unsafeUnwrap()).toBe(1);
  });
});
