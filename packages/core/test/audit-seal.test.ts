import { createMemoryAdapters } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import { auditSealValue } from '../src/adapter.js';
import {
  type AuditEntry,
  type AuditSealingKeys,
  type CompliancePrincipal,
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
  principalKey,
} from '../src/index.js';
import { listingEveryone } from './support/listing-everyone.js';
import { aManager } from './support/memory-kit.js';

/**
 * Sealed entries and anchors (docs/data-protection.md): with the host's keys every entry the kit
 * appends carries an HMAC of its chain hash; an entry appended with store access only (the port
 * without a sealer, as a raw INSERT) chains but does not verify. An anchor kept outside catches a
 * cut tail and a trail rewritten end to end.
 */
const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };
const KEY_2026 = 'k'.repeat(32);
const KEY_2027 = 'an-other-secret-of-at-least-32-bytes';

const terms = {
  termsVersion: '2026-03',
  signedAt: '2026-03-01T10:00:30+01:00',
  signatoryName: 'Chloé Laurent',
};

/** A kit on memory sealing with `auditSealing` (null: no keys), and `make` for another kit on the same store. */
const sealedKit = (
  auditSealing: AuditSealingKeys | null = { keys: { '2026': KEY_2026 }, sealWith: '2026' },
) => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock });
  const make = (sealing: AuditSealingKeys | null) =>
    createOnboardingKit({ ...adapters, ...(sealing === null ? {} : { auditSealing: sealing }) });
  return { adapters, kit: make(auditSealing), make };
};

const aClientWithTwoEntries = async (setup: ReturnType<typeof sealedKit>) => {
  const manager = aManager();
  setup.adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(8));
  const client = (
    await setup.kit.clients.createIndividual(manager, exampleIndividualPayload())
  )._unsafeUnwrap();
  (await setup.kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
  return { manager, client };
};

const forgedEntry = (clientId: string): AuditEntry => ({
  id: crypto.randomUUID(),
  clientId,
  action: 'approve',
  actor: { kind: 'compliance', id: 'officer-1' },
  requestId: null,
  at: '2026-03-01T09:00:00.000Z',
  changes: [{ path: 'status', before: 'VERIFIED', after: 'VERIFIED' }],
  documents: [],
});

describe('sealed audit entries', () => {
  it('every way the kit appends an entry seals it: commands, screening results, monitoring, downloads, redaction', async () => {
    const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
    let listed = 't-1';
    const adapters = createMemoryAdapters({ clock, screening: listingEveryone(() => listed) });
    const kit = createOnboardingKit({
      ...adapters,
      auditSealing: { keys: { '2026': KEY_2026 }, sealWith: '2026' },
    });
    const manager = aManager();
    adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(8));
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    await adapters.testing.screenDueClients(kit);
    const screened = (await kit.review.get(compliance, client.id))._unsafeUnwrap();
    const [hit] = screened.screening?.hits ?? [];
    (
      await kit.screening.resolveHit(compliance, client.id, hit?.id ?? '', {
        decision: 'DISMISSED',
        reason: 'Another person',
      })
    )._unsafeUnwrap();
    const profile = screened.individualProfile;
    listed = 't-2';
    (
      await kit.screening.listChanged({
        version: 'v2',
        changedTargets: [{ id: 't-2', names: [`${profile?.firstName} ${profile?.lastName}`] }],
      })
    )._unsafeUnwrap();
    await adapters.testing.screenDueClients(kit);
    (await kit.review.assign(compliance, client.id))._unsafeUnwrap();
    const [key] = profile?.idDocuments ?? [];
    (
      await kit.documents.requestClientDownloadBatch(compliance, client.id, { filenames: [key] })
    )._unsafeUnwrap();
    (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    (await kit.redaction.redact(compliance, client.id))._unsafeUnwrap();

    const trail = (await adapters.audit.listForClient({ clientId: client.id, limit: 100 }))._unsafeUnwrap();
    // The screening job's result, then monitoring's after the list change: two screening results.
    expect(trail.map(({ entry }) => entry.action)).toEqual([
      'create',
      'screening-result',
      'screening-resolution',
      'screening-result',
      'assign',
      'download-links-issued',
      'delete',
      'redact',
    ]);
    expect(trail.filter(({ link }) => link.seal === null)).toEqual([]);
    expect((await kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      sealsChecked: true,
      firstBrokenLink: null,
    });
  });

  it("seals every entry the kit appends with the host's key; verification checks each seal", async () => {
    const setup = sealedKit();
    const { client } = await aClientWithTwoEntries(setup);
    const trail = (
      await setup.adapters.audit.listForClient({ clientId: client.id, limit: 10 })
    )._unsafeUnwrap();
    expect(trail.map(({ link }) => link.seal)).toEqual(
      trail.map(({ link }) => ({ keyId: '2026', value: auditSealValue(KEY_2026, '2026', link.hash) })),
    );
    expect((await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 2,
      sealsChecked: true,
      head: { sequence: 2, hash: trail[1]?.link.hash },
      firstBrokenLink: null,
    });
  });

  it('an entry appended with store access only chains, but is UNSEALED; a made-up or copied seal is SEAL_INVALID', async () => {
    const setup = sealedKit();
    const { client } = await aClientWithTwoEntries(setup);
    const forged = forgedEntry(client.id);
    // What a database role can do: the store chains it, it has no key to seal it.
    (await setup.adapters.audit.append([forged]))._unsafeUnwrap();
    expect((await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 3,
      head: null,
      firstBrokenLink: { entryId: forged.id, sequence: 3, reason: 'UNSEALED' },
    });

    const guessed = sealedKit();
    const other = await aClientWithTwoEntries(guessed);
    const sealedByGuess = forgedEntry(other.client.id);
    (
      await guessed.adapters.audit.append([sealedByGuess], (hash) => ({
        keyId: '2026',
        value: auditSealValue('a-guessed-key-of-at-least-32-bytes!', '2026', hash),
      }))
    )._unsafeUnwrap();
    expect(
      (await guessed.kit.audit.verify(compliance, other.client.id))._unsafeUnwrap().firstBrokenLink,
    ).toEqual({
      entryId: sealedByGuess.id,
      sequence: 3,
      reason: 'SEAL_INVALID',
    });

    // A genuine seal, copied from another entry: it seals that entry's hash, not this one's.
    const copied = sealedKit();
    const third = await aClientWithTwoEntries(copied);
    const [first] = (
      await copied.adapters.audit.listForClient({ clientId: third.client.id, limit: 1 })
    )._unsafeUnwrap();
    const copiedSeal = first?.link.seal ?? null;
    const withCopy = forgedEntry(third.client.id);
    (
      await copied.adapters.audit.append([withCopy], () => copiedSeal ?? { keyId: '', value: '' })
    )._unsafeUnwrap();
    expect(
      (await copied.kit.audit.verify(compliance, third.client.id))._unsafeUnwrap().firstBrokenLink,
    ).toMatchObject({
      sequence: 3,
      reason: 'SEAL_INVALID',
    });
  });

  it('rotation: entries sealed with a retired key verify while it is kept; a dropped key is UNKNOWN_SEAL_KEY', async () => {
    const setup = sealedKit();
    const { client } = await aClientWithTwoEntries(setup);
    const rotated = setup.make({ keys: { '2026': KEY_2026, '2027': KEY_2027 }, sealWith: '2027' });
    (await rotated.compliance.markTermsSigned(compliance, client.id, terms))._unsafeUnwrap();
    const trail = (
      await setup.adapters.audit.listForClient({ clientId: client.id, limit: 10 })
    )._unsafeUnwrap();
    expect(trail.map(({ link }) => link.seal?.keyId)).toEqual(['2026', '2026', '2027']);
    expect((await rotated.audit.verify(compliance, client.id))._unsafeUnwrap().verified).toBe(true);
    const dropped = setup.make({ keys: { '2027': KEY_2027 }, sealWith: '2027' });
    expect((await dropped.audit.verify(compliance, client.id))._unsafeUnwrap().firstBrokenLink).toMatchObject(
      {
        sequence: 1,
        reason: 'UNKNOWN_SEAL_KEY',
      },
    );
    // Without keys the seals are not checked, and say so.
    expect((await setup.make(null).audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      sealsChecked: false,
    });
  });

  it('redaction keeps every seal valid: the trail still verifies after erasure', async () => {
    const setup = sealedKit();
    const { manager, client } = await aClientWithTwoEntries(setup);
    (await setup.kit.clients.delete(manager, client.id))._unsafeUnwrap();
    (await setup.kit.redaction.redact(compliance, client.id))._unsafeUnwrap();
    expect((await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 4,
      sealsChecked: true,
    });
  });

  it('refuses keys that cannot seal', () => {
    const adapters = createMemoryAdapters();
    expect(() =>
      createOnboardingKit({ ...adapters, auditSealing: { keys: { a: 'short' }, sealWith: 'a' } }),
    ).toThrow('auditSealing: key "a" must be at least 32 bytes');
    expect(() =>
      createOnboardingKit({ ...adapters, auditSealing: { keys: { a: KEY_2026 }, sealWith: 'b' } }),
    ).toThrow('auditSealing: sealWith "b" names no key of keys');
    expect(() =>
      createOnboardingKit({ ...adapters, auditSealing: { keys: { 'a b': KEY_2026 }, sealWith: 'a b' } }),
    ).toThrow('auditSealing: key id "a b" must match');
  });
});

describe('anchors kept outside the store', () => {
  it('a trail rewritten end to end verifies on its own; against the anchor it is ANCHOR_MISMATCH', async () => {
    const setup = sealedKit(null);
    const { client } = await aClientWithTwoEntries(setup);
    const { head } = (await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap();
    expect(head?.sequence).toBe(2);
    const anchor = { anchorSequence: String(head?.sequence), anchorHash: head?.hash };
    // Rewrite the first entry and recompute the chain after it, as whoever holds the store and the
    // algorithm (and no key) can: here by removing both entries and appending rewritten ones.
    const entries = setup.adapters.testing.readAuditEntries(client.id);
    for (const entry of entries) await setup.adapters.testing.forgeAuditEntry(entry.id, null);
    const rewritten = entries.map((entry) => ({
      ...entry,
      id: crypto.randomUUID(),
      actor: { kind: 'system' as const, id: 'x' },
    }));
    (await setup.adapters.audit.append(rewritten))._unsafeUnwrap();
    expect((await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap().verified).toBe(true);
    expect((await setup.kit.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 2,
      anchor: { sequence: 2, hash: head?.hash },
      firstBrokenLink: { entryId: rewritten[1]?.id, sequence: 2, reason: 'ANCHOR_MISMATCH' },
    });
  });

  it('a trail grown past its anchor verifies; one cut below it, even to nothing, is TAIL_MISSING', async () => {
    const setup = sealedKit();
    const { client } = await aClientWithTwoEntries(setup);
    const { head } = (await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap();
    const anchor = { anchorSequence: String(head?.sequence), anchorHash: head?.hash };
    (await setup.kit.compliance.markTermsSigned(compliance, client.id, terms))._unsafeUnwrap();
    expect((await setup.kit.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 3,
      head: { sequence: 3 },
    });
    for (const entry of setup.adapters.testing.readAuditEntries(client.id).slice(1)) {
      await setup.adapters.testing.forgeAuditEntry(entry.id, null);
    }
    expect((await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap().verified).toBe(true);
    expect((await setup.kit.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 1,
      firstBrokenLink: { entryId: null, sequence: 2, reason: 'TAIL_MISSING' },
    });
    const first = setup.adapters.testing.readAuditEntries(client.id)[0];
    await setup.adapters.testing.forgeAuditEntry(first?.id as string, null);
    expect((await setup.kit.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: false,
      checkedEntries: 0,
      firstBrokenLink: { entryId: null, sequence: 2, reason: 'TAIL_MISSING' },
    });
  });

  it('entries from before the keys are UNSEALED, unless an anchor kept then vouches for them', async () => {
    const setup = sealedKit(null);
    const { client } = await aClientWithTwoEntries(setup);
    const { head } = (await setup.kit.audit.verify(compliance, client.id))._unsafeUnwrap();
    const sealing = setup.make({ keys: { '2026': KEY_2026 }, sealWith: '2026' });
    (await sealing.compliance.markTermsSigned(compliance, client.id, terms))._unsafeUnwrap();
    expect((await sealing.audit.verify(compliance, client.id))._unsafeUnwrap().firstBrokenLink).toMatchObject(
      {
        sequence: 1,
        reason: 'UNSEALED',
      },
    );
    const anchor = { anchorSequence: String(head?.sequence), anchorHash: head?.hash };
    expect((await sealing.audit.verify(compliance, client.id, anchor))._unsafeUnwrap()).toMatchObject({
      verified: true,
      checkedEntries: 3,
      sealsChecked: true,
    });
    // After the anchor, an entry appended without the key is still caught.
    const forged = forgedEntry(client.id);
    (await setup.adapters.audit.append([forged]))._unsafeUnwrap();
    expect(
      (await sealing.audit.verify(compliance, client.id, anchor))._unsafeUnwrap().firstBrokenLink,
    ).toEqual({
      entryId: forged.id,
      sequence: 4,
      reason: 'UNSEALED',
    });
  });
});
