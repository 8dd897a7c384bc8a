import { describe, expect, it } from 'vitest';
import { exampleEntityPayload, exampleIndividualPayload } from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const DOCUMENT_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}_/;

describe('creating an individual client', () => {
  it('stores the onboarding information under review and promotes its documents', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf', new TextEncoder().encode('passport bytes'));

    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();

    expect(client.status).toBe('ONBOARDING_UNDER_REVIEW');
    expect(client.clientType).toBe('INDIVIDUAL');
    expect(client.company).toBeNull();
    expect(client.onboardingResubmissionReason).toBeNull();
    expect(client.deletedAt).toBeNull();
    const [key] = client.individualProfile?.idDocuments ?? [];
    expect(key).toMatch(DOCUMENT_KEY);
    expect(key?.endsWith('_passport.pdf')).toBe(true);
    expect(new TextDecoder().decode(adapters.testing.readDocument(key ?? '') ?? undefined)).toBe(
      'passport bytes',
    );
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files).toEqual([]);
    const history = (await kit.clients.statusHistory(manager, client.id))._unsafeUnwrap();
    expect(history).toEqual([
      {
        from: null,
        to: 'ONBOARDING_UNDER_REVIEW',
        reason: null,
        actor: `manager:${manager.managerId}`,
        at: client.createdAt,
      },
    ]);
  });

  it('gives every bank account and wallet an id and keeps absent nullable fields as null', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    expect(client.bankAccounts.length).toBeGreaterThan(0);
    for (const account of client.bankAccounts) expect(account.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.blockchainWallets[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.individualProfile?.occupationDescription ?? null).toBeNull();
  });

  it('refuses an invalid payload with paths and writes nothing', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload();
    const invalid = { ...payload, profile: { ...payload.profile, email: 'not-an-email' } };
    const error = (await kit.clients.createIndividual(manager, invalid))._unsafeUnwrapErr();
    expect(error.type).toBe('ValidationFailed');
    expect(error.type === 'ValidationFailed' && Object.keys(error.parameterErrors ?? {})).toContain(
      'profile.email',
    );
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data).toEqual([]);
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files.map((f) => f.filename)).toEqual([
      'passport.pdf',
    ]);
  });
});

describe('document rules at use (decisions §4)', () => {
  it('refuses a file never uploaded, at the path of the field, and moves nothing', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload({
      idDocuments: ['passport.pdf'],
      proofOfAddressDocuments: ['bill.pdf'],
    });
    const error = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrapErr();
    expect(error).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { 'profile.proofOfAddressDocuments[0]': [expect.stringContaining('bill.pdf')] },
    });
    expect(error.type === 'ValidationFailed' && Object.keys(error.parameterErrors ?? {})).toEqual([
      'profile.proofOfAddressDocuments[0]',
    ]);
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files).toHaveLength(1);
  });

  it('refuses a file uploaded more than 24 hours ago', async () => {
    const { kit, upload, clock } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    clock.advance(24 * 60 * 60 * 1000);
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files).toEqual([]);
    const error = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({
      parameterErrors: { 'profile.idDocuments[0]': [expect.stringContaining('upload it first')] },
    });
  });

  it('refuses an empty file and a file over the limit', async () => {
    const { kit, upload } = createMemoryKit({ maxDocumentBytes: 1000 });
    const manager = aManager();
    await upload(manager, 'empty.pdf', 0);
    await upload(manager, 'huge.pdf', 1001);
    await upload(manager, 'just-right.pdf', 1000);
    const payload = exampleIndividualPayload({ idDocuments: ['empty.pdf', 'huge.pdf', 'just-right.pdf'] });
    const error = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrapErr();
    expect(error).toMatchObject({
      parameterErrors: {
        'profile.idDocuments[0]': [expect.stringContaining('empty')],
        'profile.idDocuments[1]': [expect.stringContaining('over the limit')],
      },
    });
    expect(
      error.type === 'ValidationFailed' && error.parameterErrors?.['profile.idDocuments[2]'],
    ).toBeUndefined();
  });

  it('refuses a file over the default 25 MiB', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'scan.pdf', 25 * 1024 * 1024 + 1);
    const error = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['scan.pdf'] }))
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({
      parameterErrors: { 'profile.idDocuments[0]': [expect.stringContaining('26214400')] },
    });
  });

  it('moves a name used in two fields once, and both fields carry the same key', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload({
      idDocuments: ['passport.pdf'],
      proofOfAmlDocuments: ['passport.pdf'],
    });
    const client = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
    const [idKey] = client.individualProfile?.idDocuments ?? [];
    expect(client.individualProfile?.proofOfAmlDocuments).toEqual([idKey]);
    expect(adapters.testing.readDocument(idKey ?? '')).not.toBeNull();
  });

  it('keeps other uploads of the caller and never sees another caller’s files', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    const other = aManager();
    await upload(other, 'passport.pdf');
    const error = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload())
    )._unsafeUnwrapErr();
    expect(error.type).toBe('ValidationFailed');
    expect((await kit.documents.listUploads(other))._unsafeUnwrap().files).toHaveLength(1);
  });
});

describe('entity clients', () => {
  it('creates an entity with representatives, directors and ubos', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'kbis.pdf');
    const client = (
      await kit.clients.createEntity(
        manager,
        exampleEntityPayload({ proofOfIncorporationDocuments: ['kbis.pdf'] }),
      )
    )._unsafeUnwrap();
    expect(client.clientType).toBe('ENTITY');
    expect(client.individualProfile).toBeNull();
    expect(client.companyRepresentatives?.[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.company?.proofOfIncorporationDocuments[0]).toMatch(DOCUMENT_KEY);
    expect(client.companyDirectorsAndUbos?.directors.length).toBeGreaterThan(0);
  });
});

describe('reading, listing and deleting clients', () => {
  it('answers another manager’s client exactly like an unknown one', async () => {
    const { kit, upload } = createMemoryKit();
    const owner = aManager();
    const stranger = aManager();
    await upload(owner, 'passport.pdf');
    const client = (await kit.clients.createIndividual(owner, exampleIndividualPayload()))._unsafeUnwrap();
    expect((await kit.clients.get(stranger, client.id))._unsafeUnwrapErr()).toEqual({
      type: 'ClientNotFound',
      clientId: client.id,
    });
    expect((await kit.clients.delete(stranger, client.id))._unsafeUnwrapErr().type).toBe('ClientNotFound');
    expect((await kit.clients.statusHistory(stranger, client.id))._unsafeUnwrapErr().type).toBe(
      'ClientNotFound',
    );
    expect((await kit.clients.get(owner, 'not-a-uuid'))._unsafeUnwrapErr().type).toBe('ClientNotFound');
  });

  it('pages through clients newest first with a cursor, with filters', async () => {
    const { kit, upload, clock } = createMemoryKit();
    const manager = aManager();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await upload(manager, 'passport.pdf');
      ids.push((await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap().id);
      clock.advance(1000);
    }
    const first = (await kit.clients.list(manager, { limit: '2' }))._unsafeUnwrap();
    expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    const second = (
      await kit.clients.list(manager, { limit: '2', cursor: first.nextCursor })
    )._unsafeUnwrap();
    expect(second.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const third = (
      await kit.clients.list(manager, { limit: '2', cursor: second.nextCursor })
    )._unsafeUnwrap();
    expect(third).toMatchObject({ data: [{ id: ids[0] }], nextCursor: null });
    expect((await kit.clients.list(manager, { clientType: 'ENTITY' }))._unsafeUnwrap().data).toEqual([]);
    expect(
      (await kit.clients.list(manager, { status: 'ONBOARDING_UNDER_REVIEW' }))._unsafeUnwrap().data,
    ).toHaveLength(5);
  });

  it('refuses a bad limit, an unknown filter value and a forged cursor', async () => {
    const { kit } = createMemoryKit();
    const manager = aManager();
    for (const query of [
      { limit: '0' },
      { limit: '101' },
      { status: 'SLEEPING' },
      { cursor: 'forged' },
      { sort: 'x' },
    ]) {
      expect((await kit.clients.list(manager, query))._unsafeUnwrapErr().type).toBe('ValidationFailed');
    }
  });

  it('soft-deletes: status DELETED, deletedAt set, documents kept; a second delete is refused', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const deleted = (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    expect(deleted.status).toBe('DELETED');
    expect(deleted.deletedAt).not.toBeNull();
    expect(adapters.testing.readDocument(client.individualProfile?.idDocuments[0] ?? '')).not.toBeNull();
    expect((await kit.clients.delete(manager, client.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'InvalidStatus',
      currentStatus: 'DELETED',
    });
  });
});
