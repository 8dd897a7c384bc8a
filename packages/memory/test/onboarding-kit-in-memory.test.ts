import {
  createControllableClock,
  createOnboardingKit,
  createSequentialIds,
  demoIdentities,
  exampleIndividualPayload,
  seedDemoData,
} from '@onboarding-kit/core';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

// The README's wiring, run: core's kit over the memory adapters, time moved by hand.
const publicBaseUrl = 'http://localhost:3000/storage';
const day = 24 * 3_600_000;

const setup = async () => {
  const clock = createControllableClock(new Date('2031-01-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock, ids: createSequentialIds(1), publicBaseUrl });
  (await seedDemoData(adapters))._unsafeUnwrap();
  const kit = createOnboardingKit({ ...adapters, options: {} });
  return { clock, adapters, kit };
};

describe('the kit in memory mode', () => {
  it('uploads through a presigned link, then creates a client that promotes the file', async () => {
    const { adapters, kit } = await setup();
    const manager = demoIdentities.managerA.principal;
    const batch = (
      await kit.documents.requestUploadBatch(manager, { filenames: ['passport.pdf'] })
    )._unsafeUnwrap();
    const [upload] = batch.uploads;
    if (upload === undefined) expect.fail('one upload link');
    expect(upload.uploadUrl.startsWith(`${publicBaseUrl}/uploads/`)).toBe(true);
    const bytes = new TextEncoder().encode('%PDF-1.7 a passport');
    const token = upload.uploadUrl.slice(`${publicBaseUrl}/uploads/`.length);
    (await adapters.signedLinks.acceptUpload(token, bytes))._unsafeUnwrap();

    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const [key] = client.individualProfile?.idDocuments ?? [];
    if (key === undefined) expect.fail('the passport is promoted');
    expect(key.endsWith('_passport.pdf')).toBe(true);
    expect(adapters.testing.readDocument(key)).toEqual(bytes);
    expect(
      adapters.testing.readTemporaryFile('manager:11111111-1111-4111-8111-111111111111', 'passport.pdf'),
    ).toBeNull();
    expect(adapters.testing.readStatusHistory(client.id)).toHaveLength(1);

    const download = (
      await kit.documents.requestDownloadBatch(manager, { filenames: [key] })
    )._unsafeUnwrap();
    const url = download.downloads[0]?.downloadUrl ?? expect.fail('one download link');
    const opened = await adapters.signedLinks.openDownload(url.slice(`${publicBaseUrl}/downloads/`.length));
    expect(opened._unsafeUnwrap()).toEqual({ body: bytes, filename: 'passport.pdf' });
  });

  it('after a restart, a document whose bytes were in memory is not found, not a dead link', async () => {
    const { adapters, kit, clock } = await setup();
    const manager = demoIdentities.managerA.principal;
    const owner = `manager:${manager.managerId}`;
    adapters.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array([1]));
    const before = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const [lost] = before.individualProfile?.idDocuments ?? [];
    if (lost === undefined) expect.fail('the passport is promoted');

    // The restart: the index (as PostgreSQL would) keeps its rows; memory storage starts empty.
    const restartedStorage = createMemoryAdapters({ clock, ids: createSequentialIds(2), publicBaseUrl });
    const restarted = createOnboardingKit({ ...adapters, documentStorage: restartedStorage.documentStorage });
    restartedStorage.testing.putTemporaryFile(owner, 'passport.pdf', new Uint8Array([2]));
    const after = (
      await restarted.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrap();
    const [kept] = after.individualProfile?.idDocuments ?? [];
    if (kept === undefined) expect.fail('the new passport is promoted');

    expect(
      (await restarted.documents.requestDownloadBatch(manager, { filenames: [lost] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'DocumentNotFound',
      keys: [lost],
    });
    // Nothing is presigned when one key is gone; the stored one alone downloads.
    expect(
      (
        await restarted.documents.requestDownloadBatch(manager, { filenames: [kept, lost] })
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'DocumentNotFound', keys: [lost] });
    const download = (
      await restarted.documents.requestDownloadBatch(manager, { filenames: [kept] })
    )._unsafeUnwrap();
    const url = download.downloads[0]?.downloadUrl ?? expect.fail('one download link');
    const opened = await restartedStorage.signedLinks.openDownload(
      url.slice(`${publicBaseUrl}/downloads/`.length),
    );
    expect(opened._unsafeUnwrap()).toEqual({ body: new Uint8Array([2]), filename: 'passport.pdf' });
  });

  it('forgets temporary files after 24 hours of the controllable clock', async () => {
    const { adapters, kit, clock } = await setup();
    const client = demoIdentities.clientA1.principal;
    adapters.testing.putTemporaryFile(`client:${client.clientId}`, 'payslip.pdf', new Uint8Array([1, 2]));
    expect((await kit.documents.listUploads(client))._unsafeUnwrap().files.map((f) => f.filename)).toEqual([
      'payslip.pdf',
    ]);
    clock.advance(day + 1);
    expect((await kit.documents.listUploads(client))._unsafeUnwrap().files).toEqual([]);
  });

  it('expires idempotency records after 24 hours of the controllable clock', async () => {
    const { kit, clock } = await setup();
    const input = { scope: 'manager:a POST /clients', owner: 'manager:a', key: 'k-1', body: { a: 1 } };
    const claimed = (await kit.idempotency.claim(input))._unsafeUnwrap();
    if (claimed.type !== 'Claimed') expect.fail('a free key is claimed');
    (
      await kit.idempotency.complete(claimed.ref, { kind: 'response', status: 201, body: { ok: true } })
    )._unsafeUnwrap();
    expect((await kit.idempotency.claim(input))._unsafeUnwrap()).toEqual({
      type: 'Replay',
      outcome: { kind: 'response', status: 201, body: { ok: true } },
    });
    clock.advance(day + 1);
    expect((await kit.idempotency.claim(input))._unsafeUnwrap().type).toBe('Claimed');
  });
});
