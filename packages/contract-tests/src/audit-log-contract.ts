import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '@onboarding-kit/core';
import {
  type AuditLog,
  type AuditSealer,
  firstAuditChainBreak,
  portableTextHashing,
  REDACTED_VALUE,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type AuditLogContractFixture = Teardown & {
  readonly audit: AuditLog;
  /** The unit of work whose transactions append with their writes. */
  readonly unitOfWork: UnitOfWork;
  readonly inspect: {
    /** A client's entries as the back end holds them (read directly, not through the port), in trail order. */
    readEntries(clientId: string): Promise<AuditEntry[]>;
    /**
     * Rewrites a stored entry behind the log's back, as the store's own role could with raw SQL
     * (triggers bypassed, its chain columns untouched); `null` deletes it.
     */
    forgeEntry(entryId: string, forged: Partial<AuditEntry> | null): Promise<void>;
    /** Makes the client one whose personal data was erased (DELETED and redacted), where the back end keeps clients. */
    markClientRedacted(clientId: string): Promise<void>;
    /**
     * Rechains the client's entries as the store chained them before documents digests (version 1,
     * PostgreSQL's migration 0007: no documents digest, the hash over the documents as written),
     * behind the log's back: the trail a database upgraded to migration 0027 holds.
     */
    rechainAsVersion1(clientId: string): Promise<void>;
  };
};

export type AuditLogContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<AuditLogContractFixture>;
};

const AT = '2031-01-01T00:00:00.000Z';

/** A stand-in for the kit's HMAC: what a store keeps is what the sealer made of the hash it chained. */
const testSealer: AuditSealer = (hash) => ({ keyId: 'contract-key', value: `sealed:${hash}` });

const anEntry = (clientId: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  clientId,
  action: 'resubmit',
  actor: { kind: 'manager', id: randomUUID() },
  requestId: randomUUID(),
  at: AT,
  changes: [
    { path: 'profile.lastName', before: 'Durand', after: 'Dupont' },
    { path: 'bankAccounts[0].identifiers.iban', before: null, after: 'FR7630006000011234567890189' },
    { path: 'profile["odd key"]', before: 3, after: true },
  ],
  documents: [],
  ...overrides,
});

/** AuditLog (core/src/ports/audit-log.ts): the append-only trail of client changes and issued links. */
export const runAuditLogContract = ({ name, setup }: AuditLogContractOptions): void => {
  describe(`AuditLog contract: ${name}`, () => {
    it("reads a client's entries in the order appended, exactly as appended, and no one else's", async () => {
      const { audit, inspect } = await openFixture(setup);
      const client = randomUUID();
      // Same instant on purpose: the order is the append order, which `at` alone cannot tell.
      const mine = [
        anEntry(client, { action: 'create', requestId: null }),
        anEntry(client, {
          action: 'download-links-issued',
          changes: [],
          documents: [`${randomUUID()}_a.pdf`],
        }),
        anEntry(client, { action: 'approve', actor: { kind: 'compliance', id: 'officer-1' } }),
        anEntry(client, { action: 'delete', actor: { kind: 'system', id: 'retention' } }),
      ];
      await expectOk(audit.append([mine[0] as AuditEntry]));
      await expectOk(audit.append([anEntry(randomUUID())]));
      await expectOk(audit.append(mine.slice(1)));
      const read = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      expect(read.map(({ entry }) => entry)).toEqual(mine);
      const positions = read.map(({ position }) => position);
      expect(positions.every((position) => /^[1-9][0-9]*$/.test(position))).toBe(true);
      expect(new Set(positions).size).toBe(mine.length);
      expect(await inspect.readEntries(client)).toEqual(mine);
      expect(await expectOk(audit.listForClient({ clientId: randomUUID(), limit: 10 }))).toEqual([]);
    });

    it('pages after a position, bounded by the limit', async () => {
      const { audit } = await openFixture(setup);
      const client = randomUUID();
      const appended = [anEntry(client), anEntry(client), anEntry(client), anEntry(client), anEntry(client)];
      await expectOk(audit.append(appended));
      const seen: string[] = [];
      let afterPosition: string | undefined;
      for (let page = 0; page < 4; page += 1) {
        const read = await expectOk(
          audit.listForClient({
            clientId: client,
            limit: 2,
            ...(afterPosition === undefined ? {} : { afterPosition }),
          }),
        );
        expect(read.length).toBeLessThanOrEqual(2);
        for (const { position, entry } of read) {
          seen.push(entry.id);
          afterPosition = position;
        }
      }
      expect(seen).toEqual(appended.map(({ id }) => id));
    });

    it('keeps the entries of a committed transaction and none of a rolled-back one', async () => {
      const { audit, unitOfWork, inspect } = await openFixture(setup);
      const client = randomUUID();
      const kept = anEntry(client);
      await expectOk(unitOfWork.transaction((stores) => stores.audit.append([kept])));
      const dropped = anEntry(client);
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.audit.append([dropped]).andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      expect(
        (await expectOk(audit.listForClient({ clientId: client, limit: 10 }))).map(({ entry }) => entry),
      ).toEqual([kept]);
      expect(await inspect.readEntries(client)).toEqual([kept]);
    });

    it('never replaces an entry: an id already taken is refused, and the append writes nothing', async () => {
      const { audit, inspect } = await openFixture(setup);
      const client = randomUUID();
      const first = anEntry(client);
      await expectOk(audit.append([first]));
      const other = anEntry(client);
      const error = await expectErr(audit.append([other, { ...anEntry(client), id: first.id }]));
      expect(error).toMatchObject({ type: 'StorageUnavailable' });
      const twice = anEntry(client);
      await expectErr(audit.append([twice, twice]));
      expect(await inspect.readEntries(client)).toEqual([first]);
    });

    it("redaction replaces the client's change values, keeps the rest of its entries, and no one else's", async () => {
      const { audit, unitOfWork, inspect } = await openFixture(setup);
      const client = randomUUID();
      const key = randomUUID();
      const mine = [
        anEntry(client),
        anEntry(client, {
          action: 'download-links-issued',
          changes: [],
          documents: [`${key}_passport_jane_doe.pdf`, 'no-uuid.pdf'],
        }),
      ];
      const other = anEntry(randomUUID());
      await expectOk(audit.append([...mine, other]));
      // Rolled back with its transaction like any write.
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.audit.redactChanges(client).andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      expect(await inspect.readEntries(client)).toEqual(mine);

      const redacted = [
        {
          ...mine[0],
          changes: [
            { path: 'profile.lastName', before: REDACTED_VALUE, after: REDACTED_VALUE },
            { path: 'bankAccounts[0].identifiers.iban', before: null, after: REDACTED_VALUE },
            { path: 'profile["odd key"]', before: REDACTED_VALUE, after: REDACTED_VALUE },
          ],
        },
        // The file names go, the document ids stay.
        { ...mine[1], documents: [`${key}_[redacted]`, REDACTED_VALUE] },
      ];
      await inspect.markClientRedacted(client);
      await expectOk(unitOfWork.transaction((stores) => stores.audit.redactChanges(client)));
      expect(await inspect.readEntries(client)).toEqual(redacted);
      await expectOk(audit.redactChanges(client));
      expect(
        (await expectOk(audit.listForClient({ clientId: client, limit: 10 }))).map(({ entry }) => entry),
      ).toEqual(redacted);
      expect(await inspect.readEntries(other.clientId)).toEqual([other]);
      await expectOk(audit.redactChanges(randomUUID()));
    });

    it("chains each client's entries in the order appended, and every link verifies", async () => {
      const { audit } = await openFixture(setup);
      const client = randomUUID();
      const other = randomUUID();
      // Text that JSON escapes, and text that it does not: the store hashes what core hashes.
      const awkward = anEntry(client, {
        requestId: 'req "1"\\ é\u2028',
        actor: { kind: 'system', id: 'retention' },
        changes: [
          { path: 'profile.lastName', before: 'Ørsted\n\t"x"', after: '北京 😀' },
          { path: 'profile.amount', before: 1.5, after: 1e21 },
          { path: 'profile.nested', before: null, after: { a: [1, null, 'b'] } },
        ],
      });
      const appended = [
        anEntry(client, { action: 'create', requestId: null }),
        anEntry(other),
        awkward,
        anEntry(client, { action: 'download-links-issued', changes: [], documents: ['k1', 'k "2"'] }),
      ];
      await expectOk(audit.append(appended.slice(0, 2)));
      await expectOk(audit.append(appended.slice(2)));
      const trail = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      expect(trail.map(({ entry }) => entry.id)).toEqual([appended[0]?.id, awkward.id, appended[3]?.id]);
      expect(trail.map(({ link }) => link.sequence)).toEqual([1, 2, 3]);
      expect(trail.map(({ link }) => link.previousHash)).toEqual([
        null,
        trail[0]?.link.hash,
        trail[1]?.link.hash,
      ]);
      for (const { link } of trail) {
        expect(link.hash).toMatch(/^[0-9a-f]{64}$/);
        expect(link.changesDigest).toMatch(/^[0-9a-f]{64}$/);
        expect(link.documentsDigest).toMatch(/^[0-9a-f]{64}$/);
        expect(link.changesSalt).not.toBeNull();
      }
      expect(firstAuditChainBreak(portableTextHashing, trail, false)).toBeNull();
      const others = await expectOk(audit.listForClient({ clientId: other, limit: 10 }));
      expect(others.map(({ link }) => [link.sequence, link.previousHash])).toEqual([[1, null]]);
      expect(firstAuditChainBreak(portableTextHashing, others, false)).toBeNull();
    });

    it('appends of one client at the same moment still make one chain, each entry sealed on its own hash', async () => {
      const { audit } = await openFixture(setup);
      const client = randomUUID();
      const appended = Array.from({ length: 12 }, () => anEntry(client));
      await Promise.all(appended.map((entry) => expectOk(audit.append([entry], testSealer))));
      const trail = await expectOk(audit.listForClient({ clientId: client, limit: 20 }));
      expect(trail.map(({ link }) => link.sequence)).toEqual(appended.map((_, index) => index + 1));
      expect(new Set(trail.map(({ entry }) => entry.id))).toEqual(new Set(appended.map(({ id }) => id)));
      expect(firstAuditChainBreak(portableTextHashing, trail, false)).toBeNull();
      expect(trail.map(({ link }) => link.seal)).toEqual(trail.map(({ link }) => testSealer(link.hash)));
    });

    it('keeps the seal its sealer makes of each hash with the entry, or neither, and through redaction', async () => {
      const { audit, unitOfWork, inspect } = await openFixture(setup);
      const client = randomUUID();
      await expectOk(audit.append([anEntry(client), anEntry(client, { changes: [] })], testSealer));
      await expectOk(unitOfWork.transaction((stores) => stores.audit.append([anEntry(client)], testSealer)));
      const dropped = anEntry(client);
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.audit
            .append([dropped], testSealer)
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      // Appended without a sealer (as by anyone writing the store directly): no seal.
      await expectOk(audit.append([anEntry(client)]));
      const seals = (trail: readonly { link: { hash: string; seal: unknown } }[]) =>
        trail.map(({ link }) => link.seal);
      const trail = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      expect(trail.map(({ entry }) => entry.id)).not.toContain(dropped.id);
      expect(seals(trail)).toEqual([...trail.slice(0, 3).map(({ link }) => testSealer(link.hash)), null]);
      await inspect.markClientRedacted(client);
      await expectOk(audit.redactChanges(client));
      expect(seals(await expectOk(audit.listForClient({ clientId: client, limit: 10 })))).toEqual(
        seals(trail),
      );
    });

    it('an entry rewritten or removed behind the log is the first broken link', async () => {
      const { audit, inspect } = await openFixture(setup);
      const trailOf = async (clientId: string) => expectOk(audit.listForClient({ clientId, limit: 10 }));
      const appendThree = async () => {
        const client = randomUUID();
        const entries = [anEntry(client), anEntry(client), anEntry(client)];
        await expectOk(audit.append(entries));
        return { client, entries };
      };
      const breakOf = async (clientId: string) =>
        firstAuditChainBreak(portableTextHashing, await trailOf(clientId), false);

      const changed = await appendThree();
      await inspect.forgeEntry(changed.entries[1]?.id as string, {
        changes: [{ path: 'profile.lastName', before: 'Durand', after: 'Someone else' }],
      });
      expect(await breakOf(changed.client)).toEqual({
        entryId: changed.entries[1]?.id,
        sequence: 2,
        reason: 'CHANGES_ALTERED',
      });

      // Values replaced as redaction would, on a client that was not redacted: still a forgery.
      const fakeRedaction = await appendThree();
      await inspect.forgeEntry(fakeRedaction.entries[0]?.id as string, {
        changes: (fakeRedaction.entries[0]?.changes ?? []).map(({ path, before }) => ({
          path,
          before: before === null ? null : REDACTED_VALUE,
          after: REDACTED_VALUE,
        })),
      });
      expect(await breakOf(fakeRedaction.client)).toMatchObject({ sequence: 1, reason: 'CHANGES_ALTERED' });

      const reattributed = await appendThree();
      await inspect.forgeEntry(reattributed.entries[2]?.id as string, {
        actor: { kind: 'compliance', id: 'officer-9' },
      });
      expect(await breakOf(reattributed.client)).toMatchObject({ sequence: 3, reason: 'ENTRY_ALTERED' });

      // A file name is covered by its salted digest, the document's id by the hash.
      for (const [document, forgedDocument] of [
        ['a_passport.pdf', 'a_visa.pdf'],
        ['a_passport.pdf', 'b_passport.pdf'],
        ['a_passport.pdf', 'a_[redacted]'],
      ]) {
        const client = randomUUID();
        const entries = [anEntry(client, { documents: [document as string] }), anEntry(client)];
        await expectOk(audit.append(entries));
        await inspect.forgeEntry(entries[0]?.id as string, { documents: [forgedDocument as string] });
        expect(await breakOf(client)).toMatchObject({ sequence: 1, reason: 'ENTRY_ALTERED' });
      }

      const backdated = await appendThree();
      await inspect.forgeEntry(backdated.entries[1]?.id as string, { at: '2020-01-01T00:00:00.000Z' });
      expect(await breakOf(backdated.client)).toMatchObject({ sequence: 2, reason: 'ENTRY_ALTERED' });

      const removed = await appendThree();
      await inspect.forgeEntry(removed.entries[1]?.id as string, null);
      expect(await breakOf(removed.client)).toEqual({
        entryId: removed.entries[2]?.id,
        sequence: 3,
        reason: 'CHAIN_BROKEN',
      });
    });

    it('redaction keeps the chain verifiable for the redacted client, and for it only', async () => {
      const { audit, inspect } = await openFixture(setup);
      const client = randomUUID();
      await expectOk(audit.append([anEntry(client), anEntry(client, { changes: [] }), anEntry(client)]));
      const before = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      await inspect.markClientRedacted(client);
      await expectOk(audit.redactChanges(client));
      const after = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      expect(after.map(({ link }) => link.changesSalt)).toEqual([null, null, null]);
      expect(
        after.map(({ link }) => [link.sequence, link.previousHash, link.changesDigest, link.hash]),
      ).toEqual(before.map(({ link }) => [link.sequence, link.previousHash, link.changesDigest, link.hash]));
      expect(firstAuditChainBreak(portableTextHashing, after, true)).toBeNull();
      expect(firstAuditChainBreak(portableTextHashing, after, false)).toMatchObject({
        sequence: 1,
        reason: 'CHANGES_ALTERED',
      });
      // An entry appended after the redaction (its own) chains on.
      await expectOk(audit.append([anEntry(client, { action: 'redact', changes: [] })]));
      const last = await expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      expect(firstAuditChainBreak(portableTextHashing, last, true)).toBeNull();
    });

    it("entries chained before documents digests and after verify in one client's chain, before and after redaction", async () => {
      const { audit, inspect } = await openFixture(setup);
      const client = randomUUID();
      const [oldKey, newKey] = [randomUUID(), randomUUID()];
      const trail = async () => expectOk(audit.listForClient({ clientId: client, limit: 10 }));
      // Written before the upgrade (version 1): a create naming a document, a download of it.
      await expectOk(
        audit.append([
          anEntry(client, { action: 'create', documents: [`${oldKey}_passport_jane_doe.pdf`] }),
          anEntry(client, {
            action: 'download-links-issued',
            changes: [],
            documents: [`${oldKey}_passport_jane_doe.pdf`],
          }),
        ]),
      );
      await inspect.rechainAsVersion1(client);
      // After (version 2): a resubmission naming a new document, and its download.
      await expectOk(
        audit.append([
          anEntry(client, { documents: [`${newKey}_visa_jane_doe.pdf`] }),
          anEntry(client, {
            action: 'download-links-issued',
            changes: [],
            documents: [`${newKey}_visa_jane_doe.pdf`],
          }),
        ]),
      );
      const before = await trail();
      expect(before.map(({ link }) => link.documentsDigest === null)).toEqual([true, true, false, false]);
      expect(firstAuditChainBreak(portableTextHashing, before, false)).toBeNull();

      await inspect.markClientRedacted(client);
      await expectOk(audit.redactChanges(client));
      await expectOk(audit.redactChanges(client));
      const after = await trail();
      expect(firstAuditChainBreak(portableTextHashing, after, true)).toBeNull();
      expect(after.map(({ link }) => link.hash)).toEqual(before.map(({ link }) => link.hash));
      // Version 1 entries keep their documents (their hash covers them); version 2 lose the names.
      expect(after.map(({ entry }) => entry.documents)).toEqual([
        [`${oldKey}_passport_jane_doe.pdf`],
        [`${oldKey}_passport_jane_doe.pdf`],
        [`${newKey}_[redacted]`],
        [`${newKey}_[redacted]`],
      ]);
      // The names cannot come back unseen, nor a version 1 entry's be replaced.
      await inspect.forgeEntry(after[2]?.entry.id as string, { documents: [`${newKey}_visa_jane_doe.pdf`] });
      expect(firstAuditChainBreak(portableTextHashing, await trail(), true)).toMatchObject({
        sequence: 3,
        reason: 'ENTRY_ALTERED',
      });
      await inspect.forgeEntry(after[2]?.entry.id as string, { documents: [`${newKey}_[redacted]`] });
      await inspect.forgeEntry(after[0]?.entry.id as string, { documents: [`${oldKey}_[redacted]`] });
      expect(firstAuditChainBreak(portableTextHashing, await trail(), true)).toMatchObject({
        sequence: 1,
        reason: 'ENTRY_ALTERED',
      });
    });

    it("refuses an entry dated more than five minutes before its client's last one", async () => {
      const { audit, inspect } = await openFixture(setup);
      const client = randomUUID();
      const first = anEntry(client, { at: '2031-01-01T00:10:00.000Z' });
      await expectOk(audit.append([first]));
      const backdated = anEntry(client, { at: '2031-01-01T00:04:59.999Z' });
      expect(await expectErr(audit.append([backdated]))).toMatchObject({ type: 'StorageUnavailable' });
      const skewed = anEntry(client, { at: '2031-01-01T00:05:00.000Z' });
      await expectOk(audit.append([skewed]));
      // Another client's trail has its own times.
      await expectOk(audit.append([anEntry(randomUUID(), { at: '2020-01-01T00:00:00.000Z' })]));
      expect(await inspect.readEntries(client)).toEqual([first, skewed]);
    });

    it('appending nothing succeeds and writes nothing', async () => {
      const { audit } = await openFixture(setup);
      await expectOk(audit.append([]));
    });
  });
};
