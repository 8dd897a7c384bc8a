import { createMemoryAdapters } from '@onboarding-kit/memory';
import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, test, vi } from 'vitest';
import {
  type DocumentStorage,
  fingerprintRequestBody,
  REDACTED_FINGERPRINT,
  storageUnavailable,
  type UnitOfWork,
} from '../src/adapter.js';
import {
  type CompliancePrincipal,
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  principalKey,
  startKitMaintenance,
} from '../src/index.js';

const day = 24 * 60 * 60_000;
const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

type Faults = { storageFails: boolean; commitFails: boolean; eventsHeldBack: boolean };

/** A kit on memory whose storage deletes and whose transactions can be made to fail. */
const setup = (options = {}) => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock });
  const faults: Faults = { storageFails: false, commitFails: false, eventsHeldBack: false };
  // An event log that holds back events (PostgreSQL's does, for transactions younger than its snapshot).
  const events = {
    ...adapters.events,
    listForManager: (query: Parameters<typeof adapters.events.listForManager>[0]) =>
      faults.eventsHeldBack ? okAsync([]) : adapters.events.listForManager(query),
  };
  const documentStorage: DocumentStorage = {
    ...adapters.documentStorage,
    deletePermanent: (keys) =>
      faults.storageFails
        ? errAsync(storageUnavailable('memory')(new Error('storage down')))
        : adapters.documentStorage.deletePermanent(keys),
  };
  // The process "dies" after the storage deletes: its transaction never commits.
  const unitOfWork: UnitOfWork = {
    transaction: (work) =>
      adapters.unitOfWork.transaction((stores) =>
        work(stores).andThen((value) =>
          faults.commitFails ? errAsync(storageUnavailable('memory')(new Error('killed'))) : okAsync(value),
        ),
      ),
  };
  const kit = createOnboardingKit({ ...adapters, documentStorage, unitOfWork, events, options });
  return { kit, adapters, clock, faults };
};

/** A client created with a document and a marker in its data, then asked to resubmit, then deleted. */
const deletedClientWithMarker = async (h: ReturnType<typeof setup>, marker: string) => {
  const manager: ManagerPrincipal = { kind: 'manager', managerId: crypto.randomUUID() };
  h.adapters.testing.putTemporaryFile(
    principalKey(manager),
    'id.pdf',
    new TextEncoder().encode(`scan ${marker}`),
  );
  const example = exampleIndividualPayload({ idDocuments: ['id.pdf'] });
  const created = (
    await h.kit.clients.createIndividual(manager, {
      ...example,
      profile: { ...example.profile, lastName: `Doe ${marker}` },
    })
  )._unsafeUnwrap();
  (
    await h.kit.compliance.requestResubmission(compliance, created.id, { reason: `why ${marker}` })
  )._unsafeUnwrap();
  (await h.kit.clients.delete(manager, created.id))._unsafeUnwrap();
  return { manager, client: created, key: created.individualProfile?.idDocuments[0] ?? '' };
};

describe('redaction', () => {
  test('a crash between the storage deletes and the commit leaves nothing a rerun does not finish', async () => {
    const h = setup();
    const marker = `canary-${crypto.randomUUID()}`;
    const { client, key } = await deletedClientWithMarker(h, marker);
    expect(h.adapters.testing.dump()).toContain(marker);

    // The storage fails: nothing changed.
    h.faults.storageFails = true;
    expect((await h.kit.redaction.redact(compliance, client.id))._unsafeUnwrapErr().type).toBe(
      'StorageUnavailable',
    );
    expect(h.adapters.testing.readClient(client.id)?.redactedAt).toBeNull();
    expect(h.adapters.testing.readDocument(key)).not.toBeNull();

    // The objects are deleted, then the process dies before the commit.
    h.faults.storageFails = false;
    h.faults.commitFails = true;
    expect((await h.kit.redaction.redact(compliance, client.id)).isErr()).toBe(true);
    expect(h.adapters.testing.readDocument(key)).toBeNull();
    expect(h.adapters.testing.readClient(client.id)?.redactedAt).toBeNull();

    // The rerun finishes it (deleting the deleted objects again is fine).
    h.faults.commitFails = false;
    const redacted = (await h.kit.redaction.redact(compliance, client.id))._unsafeUnwrap();
    expect(redacted).toMatchObject({
      status: 'DELETED',
      individualProfile: null,
      redactedAt: expect.any(String),
    });
    expect(h.adapters.testing.dump()).not.toContain(marker);
    expect(h.adapters.testing.readAuditEntries(client.id).map((entry) => entry.action)).toEqual([
      'create',
      'request-resubmission',
      'delete',
      'redact',
    ]);
    // Idempotent: the same client again, no second entry.
    expect((await h.kit.redaction.redact(compliance, client.id))._unsafeUnwrap()).toEqual(redacted);
    expect(h.adapters.testing.readAuditEntries(client.id)).toHaveLength(4);
  });

  test('a crash before the commit leaves the stored answers and fingerprints as they were; the rerun redacts both', async () => {
    const h = setup();
    const manager: ManagerPrincipal = { kind: 'manager', managerId: crypto.randomUUID() };
    h.adapters.testing.putTemporaryFile(principalKey(manager), 'id.pdf', new TextEncoder().encode('scan'));
    const example = exampleIndividualPayload({ idDocuments: ['id.pdf'] });
    const body = { ...example, profile: { ...example.profile, lastName: 'Crashworthy' } };
    const scope = `${principalKey(manager)} POST /clients/individuals`;
    const claim = (
      await h.kit.idempotency.claim({ scope, key: 'create-1', owner: principalKey(manager), body })
    )._unsafeUnwrap();
    if (claim.type !== 'Claimed') throw new Error('expected a claim');
    const created = (
      await h.kit.clients.createIndividual(manager, body, { claim: claim.ref })
    )._unsafeUnwrap();
    (await h.kit.clients.delete(manager, created.id))._unsafeUnwrap();
    const digest = fingerprintRequestBody(body)._unsafeUnwrap();
    const stored = () => h.adapters.testing.readIdempotencyRecord(scope, 'create-1');
    const before = stored();
    expect(before?.fingerprint).toBe(digest);

    h.faults.commitFails = true;
    expect((await h.kit.redaction.redact(compliance, created.id)).isErr()).toBe(true);
    // Nothing half-done: the answer and the fingerprint change together, or neither does.
    expect(stored()).toEqual(before);

    h.faults.commitFails = false;
    (await h.kit.redaction.redact(compliance, created.id))._unsafeUnwrap();
    expect(stored()?.fingerprint).toBe(REDACTED_FINGERPRINT);
    expect(JSON.stringify(stored()?.outcome)).not.toContain('Crashworthy');
    expect(h.adapters.testing.dump()).not.toContain(digest);
  });

  test('a document the event log did not show before the deletes fails the run; the rerun deletes it', async () => {
    const h = setup();
    const marker = `canary-${crypto.randomUUID()}`;
    const manager: ManagerPrincipal = { kind: 'manager', managerId: crypto.randomUUID() };
    const put = (filename: string) =>
      h.adapters.testing.putTemporaryFile(
        principalKey(manager),
        filename,
        new TextEncoder().encode(`scan ${marker}`),
      );
    put('first.pdf');
    const created = (
      await h.kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['first.pdf'] }))
    )._unsafeUnwrap();
    (await h.kit.compliance.requestResubmission(compliance, created.id, { reason: 'again' }))._unsafeUnwrap();
    put('second.pdf');
    (
      await h.kit.clients.resubmitIndividual(
        manager,
        created.id,
        exampleIndividualPayload({ idDocuments: ['second.pdf'] }),
      )
    )._unsafeUnwrap();
    (await h.kit.clients.delete(manager, created.id))._unsafeUnwrap();
    const firstKey = created.individualProfile?.idDocuments[0] ?? '';

    h.faults.eventsHeldBack = true;
    expect((await h.kit.redaction.redact(compliance, created.id))._unsafeUnwrapErr().type).toBe(
      'StorageUnavailable',
    );
    expect(h.adapters.testing.readClient(created.id)?.redactedAt).toBeNull();
    expect(h.adapters.testing.readDocument(firstKey)).not.toBeNull();

    h.faults.eventsHeldBack = false;
    (await h.kit.redaction.redact(compliance, created.id))._unsafeUnwrap();
    expect(h.adapters.testing.readDocument(firstKey)).toBeNull();
    expect(h.adapters.testing.dump()).not.toContain(marker);
  });

  test('the maintenance loop redacts the clients deleted longer ago than the retention period', async () => {
    const h = setup({ retentionAfterDeletionDays: 30 });
    const old = await deletedClientWithMarker(h, 'old-marker');
    h.clock.advance(31 * day);
    const recent = await deletedClientWithMarker(h, 'recent-marker');
    const errors: unknown[] = [];
    // The loop's interval runs on fake timers: the test moves time on instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const maintenance = startKitMaintenance(h.kit, {
        logger: { error: (message, details) => errors.push({ message, details }) },
        purgeIdempotencyEveryMs: 0,
        sweepOrphanDocumentsEveryMs: 0,
        redactExpiredClientsEveryMs: 20,
      });
      await vi.advanceTimersByTimeAsync(60);
      await maintenance.close();
    } finally {
      vi.useRealTimers();
    }
    expect(errors).toEqual([]);
    expect(h.adapters.testing.readClient(old.client.id)?.redactedAt).toEqual(expect.any(String));
    expect(h.adapters.testing.readClient(recent.client.id)?.redactedAt).toBeNull();
    expect(h.adapters.testing.dump()).not.toContain('old-marker');
    expect(h.adapters.testing.dump()).toContain('recent-marker');
    expect(h.adapters.testing.readAuditEntries(old.client.id).at(-1)).toMatchObject({
      action: 'redact',
      actor: { kind: 'system', id: 'retention' },
    });
  });

  test('retentionAfterDeletionDays is a whole number of days from 1', () => {
    expect(() => setup({ retentionAfterDeletionDays: 0 })).toThrow(/retentionAfterDeletionDays/);
    expect(() => setup({ retentionAfterDeletionDays: 1.5 })).toThrow(/retentionAfterDeletionDays/);
    expect(setup().kit.options.retentionAfterDeletionDays).toBe(1825);
  });
});
