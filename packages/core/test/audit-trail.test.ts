import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { storageUnavailable, type UnitOfWork } from '../src/adapter.js';
import {
  type AuditEntry,
  type CompliancePrincipal,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

const created = async (setup = createMemoryKit(), manager: ManagerPrincipal = aManager()) => {
  await setup.upload(manager, 'passport.pdf');
  const client = (
    await setup.kit.clients.createIndividual(manager, exampleIndividualPayload(), { requestId: 'req-create' })
  )._unsafeUnwrap();
  return { ...setup, manager, client };
};

const trail = (entries: readonly AuditEntry[]) => entries.map(({ action }) => action);

describe('audit trail (decisions §10)', () => {
  it('a create writes one entry: the manager as actor, the request id, every payload field from null', async () => {
    const { adapters, manager, client } = await created();
    const entries = adapters.testing.readAuditEntries(client.id);
    expect(entries).toHaveLength(1);
    const [entry] = entries as [AuditEntry];
    expect(entry).toMatchObject({
      clientId: client.id,
      action: 'create',
      actor: { kind: 'manager', id: manager.managerId },
      requestId: 'req-create',
      at: client.createdAt,
      documents: [],
    });
    expect(entry.changes).toContainEqual({ path: 'status', before: null, after: 'ONBOARDING_UNDER_REVIEW' });
    expect(entry.changes).toContainEqual({ path: 'profile.lastName', before: null, after: 'Durand' });
    expect(entry.changes).toContainEqual({
      path: 'profile.idDocuments[0]',
      before: null,
      after: client.individualProfile?.idDocuments[0],
    });
    // The ids and timestamps the kit stamps on rows are not payload fields.
    expect(entry.changes.some(({ path }) => /\.(id|createdAt)$/.test(path))).toBe(false);
  });

  it('each move writes exactly one entry, with its actor, its request id and the fields that differ', async () => {
    const { kit, adapters, manager, client, upload } = await created();
    (
      await kit.compliance.requestResubmission(
        compliance,
        client.id,
        { reason: 'The passport is expired' },
        { requestId: 'req-2' },
      )
    )._unsafeUnwrap();
    await upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload();
    payload.profile.lastName = 'Dupont';
    (
      await kit.clients.resubmitIndividual(manager, client.id, payload, { requestId: 'req-3' })
    )._unsafeUnwrap();
    (await kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
    (await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrap();
    (await kit.clients.delete(manager, client.id))._unsafeUnwrap();

    const entries = adapters.testing.readAuditEntries(client.id);
    expect(trail(entries)).toEqual([
      'create',
      'request-resubmission',
      'resubmit',
      'approve',
      'terms-signed',
      'delete',
    ]);
    const [, requested, resubmitted, approved, , deleted] = entries as AuditEntry[] & { length: 6 };
    expect(requested).toMatchObject({
      actor: { kind: 'compliance', id: 'officer-1' },
      requestId: 'req-2',
      changes: [
        { path: 'status', before: 'ONBOARDING_UNDER_REVIEW', after: 'RESUBMISSION_REQUIRED' },
        { path: 'onboardingResubmissionReason', before: null, after: 'The passport is expired' },
      ],
    });
    expect(resubmitted?.actor).toEqual({ kind: 'manager', id: manager.managerId });
    expect(resubmitted?.requestId).toBe('req-3');
    expect(resubmitted?.changes).toContainEqual({
      path: 'profile.lastName',
      before: 'Durand',
      after: 'Dupont',
    });
    // Unchanged fields are not listed; the new upload is a new document key.
    expect(resubmitted?.changes.map(({ path }) => path).sort()).toEqual([
      'onboardingResubmissionReason',
      'profile.idDocuments[0]',
      'profile.lastName',
      'status',
    ]);
    expect(approved).toMatchObject({
      requestId: null,
      changes: [
        {
          path: 'status',
          before: 'ONBOARDING_UNDER_REVIEW',
          after: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        },
      ],
    });
    expect(deleted?.changes).toEqual([{ path: 'status', before: 'VERIFIED', after: 'DELETED' }]);
    expect(new Set(entries.map(({ id }) => id)).size).toBe(6);
  });

  it('a refused move writes no entry', async () => {
    const { kit, adapters, client } = await created();
    expect((await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'InvalidStatus',
    });
    expect(trail(adapters.testing.readAuditEntries(client.id))).toEqual(['create']);
  });

  it('no entry, no change: a failed audit append rolls the change back, and a failed commit the entry', async () => {
    const { adapters, client } = await created();
    const failing = (where: 'append' | 'commit'): UnitOfWork => ({
      transaction: (work) =>
        adapters.unitOfWork.transaction((stores) => {
          const audit = {
            ...stores.audit,
            append: () => errAsync(storageUnavailable('memory')(new Error('the trail is unavailable'))),
          };
          const ran = work(where === 'append' ? { ...stores, audit } : stores);
          return where === 'append'
            ? ran
            : ran.andThen(() => errAsync(storageUnavailable('memory')(new Error('the commit failed'))));
        }),
    });
    for (const where of ['append', 'commit'] as const) {
      const kit = createOnboardingKit({ ...adapters, unitOfWork: failing(where) });
      expect((await kit.compliance.approve(compliance, client.id))._unsafeUnwrapErr()).toMatchObject({
        type: 'StorageUnavailable',
      });
      expect(adapters.testing.readClient(client.id)?.status).toBe('ONBOARDING_UNDER_REVIEW');
      expect(trail(adapters.testing.readAuditEntries(client.id))).toEqual(['create']);
    }
  });

  it('a download request writes one entry per client listing its keys; no entry, no links', async () => {
    const setup = createMemoryKit();
    const manager = aManager();
    const first = await created(setup, manager);
    const second = await created(setup, manager);
    const keyOf = (client: typeof first.client) => client.individualProfile?.idDocuments[0] as string;
    const keys = [keyOf(first.client), keyOf(second.client)];
    const answer = (
      await setup.kit.documents.requestDownloadBatch(
        manager,
        { filenames: [...keys, keys[0]] },
        { requestId: 'req-dl' },
      )
    )._unsafeUnwrap();
    expect(answer.downloads).toHaveLength(3);
    for (const [index, client] of [first.client, second.client].entries()) {
      const entries = setup.adapters.testing.readAuditEntries(client.id);
      expect(trail(entries)).toEqual(['create', 'download-links-issued']);
      expect(entries[1]).toMatchObject({
        actor: { kind: 'manager', id: manager.managerId },
        requestId: 'req-dl',
        changes: [],
        documents: [keys[index]],
      });
    }

    const kit = createOnboardingKit({
      ...setup.adapters,
      unitOfWork: {
        transaction: (work) =>
          setup.adapters.unitOfWork.transaction((stores) =>
            work({
              ...stores,
              audit: {
                ...stores.audit,
                append: () => errAsync(storageUnavailable('memory')(new Error('unavailable'))),
              },
            }),
          ),
      },
    });
    expect(
      (await kit.documents.requestDownloadBatch(manager, { filenames: keys }))._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'StorageUnavailable' });
    expect(setup.adapters.testing.readAuditEntries(first.client.id)).toHaveLength(2);
  });

  it("reads a client's trail oldest first, page by page; another manager's or an unknown client is not found", async () => {
    const { kit, clock, manager, client } = await created();
    for (let i = 0; i < 4; i += 1) {
      clock.advance(1000);
      (
        await kit.documents.requestDownloadBatch(manager, {
          filenames: [client.individualProfile?.idDocuments[0] as string],
        })
      )._unsafeUnwrap();
    }
    const first = (await kit.audit.list(manager, client.id, { limit: '2' }))._unsafeUnwrap();
    expect(trail(first.data)).toEqual(['create', 'download-links-issued']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await kit.audit.list(compliance, client.id, { limit: '2', cursor: first.nextCursor })
    )._unsafeUnwrap();
    const third = (
      await kit.audit.list(manager, client.id, { limit: '2', cursor: second.nextCursor })
    )._unsafeUnwrap();
    expect(third.nextCursor).toBeNull();
    const all = [...first.data, ...second.data, ...third.data];
    expect(all).toHaveLength(5);
    expect(all.map(({ at }) => at)).toEqual([...all.map(({ at }) => at)].sort());
    expect((await kit.audit.list(manager, client.id, {}))._unsafeUnwrap().data).toEqual(all);

    for (const [principal, clientId] of [
      [aManager(), client.id],
      [manager, crypto.randomUUID()],
      [compliance, crypto.randomUUID()],
      [manager, 'not-a-uuid'],
    ] as const) {
      expect((await kit.audit.list(principal, clientId, {}))._unsafeUnwrapErr()).toEqual({
        type: 'ClientNotFound',
        clientId,
      });
    }
    expect((await kit.audit.list(manager, client.id, { cursor: 'bogus' }))._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { cursor: [expect.any(String)] },
    });
    expect(
      (await kit.audit.list(manager, client.id, { limit: '0', extra: '1' }))._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'ValidationFailed' });
  });

  it('keeps at most 200 characters of a request id, and none that no back end can store', async () => {
    const setup = createMemoryKit();
    const manager = aManager();
    const long = 'r'.repeat(500);
    for (const requestId of [long, 'bad\u0000id', '']) {
      await setup.upload(manager, 'passport.pdf');
      const client = (
        await setup.kit.clients.createIndividual(manager, exampleIndividualPayload(), { requestId })
      )._unsafeUnwrap();
      const [entry] = setup.adapters.testing.readAuditEntries(client.id);
      expect(entry?.requestId).toBe(requestId === long ? long.slice(0, 200) : null);
    }
  });
});
