import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '@onboarding-kit/core';
import { type AuditLog, REDACTED_VALUE, type UnitOfWork } from '@onboarding-kit/core/adapter';
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
  };
};

export type AuditLogContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<AuditLogContractFixture>;
};

const AT = '2031-01-01T00:00:00.000Z';

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
      const mine = [
        anEntry(client),
        anEntry(client, { action: 'download-links-issued', changes: [], documents: ['k'] }),
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
        mine[1],
      ];
      await expectOk(unitOfWork.transaction((stores) => stores.audit.redactChanges(client)));
      expect(await inspect.readEntries(client)).toEqual(redacted);
      await expectOk(audit.redactChanges(client));
      expect(
        (await expectOk(audit.listForClient({ clientId: client, limit: 10 }))).map(({ entry }) => entry),
      ).toEqual(redacted);
      expect(await inspect.readEntries(other.clientId)).toEqual([other]);
      await expectOk(audit.redactChanges(randomUUID()));
    });

    it('appending nothing succeeds and writes nothing', async () => {
      const { audit } = await openFixture(setup);
      await expectOk(audit.append([]));
    });
  });
};
