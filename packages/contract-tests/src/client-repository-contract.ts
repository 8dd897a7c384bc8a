import { randomUUID } from 'node:crypto';
import type { ClientStatus, StatusHistoryEntry } from '@onboarding-kit/core';
import {
  type ClientRepository,
  type DocumentIndex,
  type DocumentRecord,
  type IdempotencyStore,
  newestFirst,
  REDACTED_VALUE,
  redactClient,
  type StaleClientState,
  type StoredClient,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  bankAccountFixture,
  blockchainWalletFixture,
  creationEntryFor,
  documentRecordFixture,
  instantAfter,
  representativeFixture,
  storedClientFixture,
  thirdPartyBankAccountFixture,
  transitionEntry,
} from './client-fixtures.js';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

/** Reads the backend directly (raw SQL, internal maps), never through the repository under test. */
export type ClientStoreInspector = {
  readClient(clientId: string): Promise<StoredClient | null>;
  /** Oldest first; empty when there is none. */
  readStatusHistory(clientId: string): Promise<StatusHistoryEntry[]>;
  readDocumentRecord(key: string): Promise<DocumentRecord | null>;
};

export type ClientRepositoryContractFixture = Teardown & {
  readonly clients: ClientRepository;
  readonly unitOfWork: UnitOfWork;
  /** The document index outside transactions (the one `unitOfWork` binds shares its backend). */
  readonly documents: DocumentIndex;
  /** When given, the suite also proves that an idempotency `complete` commits with the transaction. */
  readonly idempotency?: IdempotencyStore;
  readonly inspect: ClientStoreInspector;
};

export type ClientRepositoryContractOptions = {
  /** Adapter name shown in the test titles. */
  readonly name: string;
  /**
   * Called once per test. Each test uses fresh random manager and client ids, so a shared backend
   * works; the concurrency test needs at least two connections.
   */
  readonly setup: () => Promise<ClientRepositoryContractFixture>;
};

const base = new Date('2031-03-04T10:00:00.000Z');

const pause = (ms: number) =>
  ResultAsync.fromSafePromise(new Promise<void>((resolve) => setTimeout(resolve, ms)));

/**
 * ClientRepository and UnitOfWork (core/src/ports/client-repository.ts, unit-of-work.ts): clients
 * and their status history, and the transaction boundary that commits them with document records
 * and idempotency outcomes.
 */
export const runClientRepositoryContract = ({ name, setup }: ClientRepositoryContractOptions): void => {
  const insertClient = async (fixture: ClientRepositoryContractFixture, client: StoredClient) => {
    await expectOk(fixture.clients.insert(client, creationEntryFor(client)));
    return client;
  };

  describe(`ClientRepository contract: ${name}`, () => {
    it('stores an inserted client and its creation entry, and finds it by id', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      for (const clientType of ['INDIVIDUAL', 'ENTITY'] as const) {
        const client = storedClientFixture({ managerId, clientType, createdAt: instantAfter(base, 0) });
        await insertClient(fixture, client);

        expect(await fixture.inspect.readClient(client.id)).toEqual(client);
        expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([creationEntryFor(client)]);
        expect(await expectOk(fixture.clients.findById(client.id))).toEqual(client);
        expect(await expectOk(fixture.clients.findForUpdate(client.id))).toEqual(client);
        expect(await expectOk(fixture.clients.statusHistory(client.id))).toEqual([creationEntryFor(client)]);
      }
    });

    it('answers null for an unknown client and an empty history', async () => {
      const fixture = await openFixture(setup);
      const unknown = randomUUID();
      expect(await expectOk(fixture.clients.findById(unknown))).toBeNull();
      expect(await expectOk(fixture.clients.findForUpdate(unknown))).toBeNull();
      expect(await expectOk(fixture.clients.statusHistory(unknown))).toEqual([]);
    });

    it("lists only the manager's clients, newest createdAt first, ties by id descending", async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const minutes = [0, 1, 1, 1, 2, 3, 3, 5];
      const own = minutes.map((m) => storedClientFixture({ managerId, createdAt: instantAfter(base, m) }));
      const others = minutes
        .slice(0, 3)
        .map((m) => storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, m) }));
      for (const client of [...own, ...others]) await insertClient(fixture, client);

      const listed = await expectOk(fixture.clients.list({ managerId, limit: 100 }));
      expect(listed.map((c) => c.id)).toEqual([...own].sort(newestFirst).map((c) => c.id));
      expect(listed).toEqual([...own].sort(newestFirst));
      expect(await expectOk(fixture.clients.list({ managerId: randomUUID(), limit: 100 }))).toEqual([]);
    });

    it('filters by status and client type, and honours the limit', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const shapes: Array<[ClientStatus, 'INDIVIDUAL' | 'ENTITY']> = [
        ['ONBOARDING_UNDER_REVIEW', 'INDIVIDUAL'],
        ['ONBOARDING_UNDER_REVIEW', 'ENTITY'],
        ['VERIFIED', 'INDIVIDUAL'],
        ['VERIFIED', 'ENTITY'],
        ['VERIFIED', 'ENTITY'],
        ['DELETED', 'INDIVIDUAL'],
      ];
      const clients = shapes.map(([status, clientType], i) =>
        storedClientFixture({ managerId, status, clientType, createdAt: instantAfter(base, i) }),
      );
      for (const client of clients) await insertClient(fixture, client);
      const expected = (keep: (c: StoredClient) => boolean) =>
        clients
          .filter(keep)
          .sort(newestFirst)
          .map((c) => c.id);
      const ids = (rows: StoredClient[]) => rows.map((c) => c.id);

      const verified = await expectOk(fixture.clients.list({ managerId, status: 'VERIFIED', limit: 100 }));
      expect(ids(verified)).toEqual(expected((c) => c.status === 'VERIFIED'));
      const entities = await expectOk(fixture.clients.list({ managerId, clientType: 'ENTITY', limit: 100 }));
      expect(ids(entities)).toEqual(expected((c) => c.clientType === 'ENTITY'));
      const both = await expectOk(
        fixture.clients.list({ managerId, status: 'VERIFIED', clientType: 'INDIVIDUAL', limit: 100 }),
      );
      expect(ids(both)).toEqual(expected((c) => c.status === 'VERIFIED' && c.clientType === 'INDIVIDUAL'));
      const none = await expectOk(
        fixture.clients.list({ managerId, status: 'RESUBMISSION_REQUIRED', limit: 100 }),
      );
      expect(none).toEqual([]);
      const firstTwo = await expectOk(fixture.clients.list({ managerId, limit: 2 }));
      expect(ids(firstTwo)).toEqual(expected(() => true).slice(0, 2));
    });

    it('pages through every client with the `after` cursor, without duplicates or gaps', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      // Ties on createdAt straddle page boundaries, so a cursor on createdAt alone would lose rows.
      const minutes = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 4];
      const clients = minutes.map((m, i) =>
        storedClientFixture({
          managerId,
          createdAt: instantAfter(base, m),
          status: i % 3 === 0 ? 'VERIFIED' : 'ONBOARDING_UNDER_REVIEW',
        }),
      );
      for (const client of clients) await insertClient(fixture, client);

      for (const limit of [1, 2, 3, 4]) {
        const seen: string[] = [];
        let after: { createdAt: string; id: string } | undefined;
        for (let page = 0; page < clients.length + 2; page += 1) {
          const rows = await expectOk(
            fixture.clients.list(after === undefined ? { managerId, limit } : { managerId, limit, after }),
          );
          expect(rows.length).toBeLessThanOrEqual(limit);
          seen.push(...rows.map((c) => c.id));
          const last = rows.at(-1);
          if (rows.length < limit || last === undefined) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(seen).toEqual([...clients].sort(newestFirst).map((c) => c.id));
      }

      // The cursor composes with a filter.
      const verified = clients.filter((c) => c.status === 'VERIFIED').sort(newestFirst);
      const [first, ...rest] = verified;
      if (first === undefined) expect.fail('fixture has verified clients');
      const afterFirst = await expectOk(
        fixture.clients.list({
          managerId,
          status: 'VERIFIED',
          limit: 100,
          after: { createdAt: first.createdAt, id: first.id },
        }),
      );
      expect(afterFirst.map((c) => c.id)).toEqual(rest.map((c) => c.id));
    });

    it('appends to the status history on insert and on every update, oldest first', async () => {
      const fixture = await openFixture(setup);
      const client = await insertClient(
        fixture,
        storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) }),
      );
      const approved: StoredClient = {
        ...client,
        status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        updatedAt: instantAfter(base, 1),
      };
      const approveEntry = transitionEntry(
        'ONBOARDING_UNDER_REVIEW',
        'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        instantAfter(base, 1),
      );
      await expectOk(fixture.clients.update(approved, 'ONBOARDING_UNDER_REVIEW', approveEntry));
      const verified: StoredClient = { ...approved, status: 'VERIFIED', updatedAt: instantAfter(base, 2) };
      const signEntry = transitionEntry(
        'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        'VERIFIED',
        instantAfter(base, 2),
        'compliance:officer',
        'terms signed on paper',
      );
      await expectOk(
        fixture.clients.update(verified, 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', signEntry),
      );

      const history = [creationEntryFor(client), approveEntry, signEntry];
      expect(await fixture.inspect.readStatusHistory(client.id)).toEqual(history);
      expect(await expectOk(fixture.clients.statusHistory(client.id))).toEqual(history);
      expect(await fixture.inspect.readClient(client.id)).toEqual(verified);
    });

    it('refuses an update with a stale expectedStatus and changes nothing', async () => {
      const fixture = await openFixture(setup);
      const client = await insertClient(
        fixture,
        storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) }),
      );
      const attempted: StoredClient = {
        ...client,
        status: 'ONBOARDING_UNDER_REVIEW',
        onboardingResubmissionReason: null,
        bankAccounts: [],
        updatedAt: instantAfter(base, 1),
      };
      const error = await expectErr(
        fixture.clients.update(
          attempted,
          'RESUBMISSION_REQUIRED',
          transitionEntry('RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', instantAfter(base, 1)),
        ),
      );
      expect(error).toEqual({
        type: 'StaleClientState',
        clientId: client.id,
        expectedStatus: 'RESUBMISSION_REQUIRED',
      } satisfies StaleClientState);
      expect(await fixture.inspect.readClient(client.id)).toEqual(client);
      expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([creationEntryFor(client)]);
    });

    it('replaces all of the onboarding information on update: bank accounts, wallets, representatives', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const created = instantAfter(base, 0);
      const later = instantAfter(base, 10);

      const entity = await insertClient(
        fixture,
        storedClientFixture({
          managerId,
          clientType: 'ENTITY',
          status: 'RESUBMISSION_REQUIRED',
          createdAt: created,
        }),
      );
      const resubmittedEntity: StoredClient = {
        ...entity,
        status: 'ONBOARDING_UNDER_REVIEW',
        company: entity.company && { ...entity.company, name: 'Boulangerie Numérique SA', turnover: null },
        companyRepresentatives: [representativeFixture('Zoé', 'AUTHORIZED_SIGNATORY', later)],
        companyDirectorsAndUbos: { directors: [], ubos: [] },
        bankAccounts: [
          bankAccountFixture('New main', later),
          thirdPartyBankAccountFixture('Supplier', later),
        ],
        blockchainWallets: [],
        updatedAt: later,
      };
      await expectOk(
        fixture.clients.update(
          resubmittedEntity,
          'RESUBMISSION_REQUIRED',
          transitionEntry('RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', later, `manager:${managerId}`),
        ),
      );
      expect(await fixture.inspect.readClient(entity.id)).toEqual(resubmittedEntity);
      expect(await expectOk(fixture.clients.findById(entity.id))).toEqual(resubmittedEntity);

      const individual = await insertClient(fixture, storedClientFixture({ managerId, createdAt: created }));
      const profile = individual.individualProfile;
      if (profile === null) expect.fail('an individual fixture has a profile');
      const resubmissionAsked: StoredClient = {
        ...individual,
        status: 'RESUBMISSION_REQUIRED',
        onboardingResubmissionReason: 'The passport scan is blurred',
        individualProfile: { ...profile, city: 'Lyon', idDocuments: [`${randomUUID()}_passport v2.pdf`] },
        bankAccounts: [],
        blockchainWallets: [blockchainWalletFixture('Cold', later), blockchainWalletFixture('Hot', later)],
        updatedAt: later,
      };
      await expectOk(
        fixture.clients.update(
          resubmissionAsked,
          'ONBOARDING_UNDER_REVIEW',
          transitionEntry('ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', later),
        ),
      );
      expect(await fixture.inspect.readClient(individual.id)).toEqual(resubmissionAsked);
    });

    it('stores the review fields as given: resubmission requirements and terms evidence', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const later = instantAfter(base, 10);
      const client = await insertClient(
        fixture,
        storedClientFixture({ managerId, createdAt: instantAfter(base, 0) }),
      );
      expect(await fixture.inspect.readClient(client.id)).toMatchObject({
        resubmissionRequirements: null,
        termsAcceptance: null,
      });

      const asked: StoredClient = {
        ...client,
        status: 'RESUBMISSION_REQUIRED',
        onboardingResubmissionReason: 'Two things to fix',
        resubmissionRequirements: [
          { field: 'profile.idDocuments[0]', code: 'DOCUMENT_EXPIRED', message: 'Expiré le 1er mars 🛂' },
          {
            field: 'bankAccounts[1].identifiers.iban',
            code: 'INFORMATION_INCORRECT',
            message: 'IBAN of "another" holder',
          },
        ],
        updatedAt: later,
      };
      await expectOk(
        fixture.clients.update(
          asked,
          'ONBOARDING_UNDER_REVIEW',
          transitionEntry('ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', later),
        ),
      );
      expect(await fixture.inspect.readClient(client.id)).toEqual(asked);
      expect(await expectOk(fixture.clients.findById(client.id))).toEqual(asked);

      const verified: StoredClient = {
        ...asked,
        status: 'VERIFIED',
        onboardingResubmissionReason: null,
        resubmissionRequirements: null,
        termsAcceptance: {
          termsVersion: '2026-03',
          signedAt: instantAfter(base, 5),
          signatoryName: 'Chloé Laurent',
          ipAddress: '2001:db8::1',
          userAgent: null,
        },
      };
      await expectOk(
        fixture.clients.update(
          verified,
          'RESUBMISSION_REQUIRED',
          transitionEntry('RESUBMISSION_REQUIRED', 'VERIFIED', later),
        ),
      );
      expect(await fixture.inspect.readClient(client.id)).toEqual(verified);
      expect(await expectOk(fixture.clients.findForUpdate(client.id))).toEqual(verified);

      // What an insert is given is stored too (a seeded or migrated client).
      const seeded: StoredClient = {
        ...storedClientFixture({ managerId, status: 'VERIFIED', createdAt: instantAfter(base, 1) }),
        termsAcceptance: verified.termsAcceptance,
      };
      await insertClient(fixture, seeded);
      expect(await fixture.inspect.readClient(seeded.id)).toEqual(seeded);
    });

    // Deletion times long before every other test's, so a shared backend lists only these.
    const deletedClient = (
      minutesAfter1971: number,
      overrides: Partial<StoredClient> = {},
    ): StoredClient => ({
      ...storedClientFixture({
        managerId: randomUUID(),
        status: 'DELETED',
        createdAt: instantAfter(base, 0),
      }),
      deletedAt: instantAfter(new Date('1971-01-01T00:00:00.000Z'), minutesAfter1971),
      ...overrides,
    });

    it('lists the deleted clients not yet redacted, deleted before an instant, oldest deletion first', async () => {
      const fixture = await openFixture(setup);
      const second = deletedClient(20);
      const first = deletedClient(10);
      const redacted = deletedClient(5);
      const later = deletedClient(40);
      // Deleted at the same instant: by id.
      const [tiedLow, tiedHigh] = [randomUUID(), randomUUID()]
        .sort()
        .map((id) => deletedClient(25, { id })) as [StoredClient, StoredClient];
      const live = storedClientFixture({ managerId: randomUUID(), status: 'VERIFIED' });
      for (const client of [second, tiedHigh, first, redacted, tiedLow, later, live])
        await insertClient(fixture, client);
      await expectOk(fixture.clients.redact(redactClient(redacted, instantAfter(base, 0))));
      const before = instantAfter(new Date('1971-01-01T00:00:00.000Z'), 30);

      expect(await expectOk(fixture.clients.listDeletedBefore(before, 10))).toEqual([
        first,
        second,
        tiedLow,
        tiedHigh,
      ]);
      expect(await expectOk(fixture.clients.listDeletedBefore(before, 1))).toEqual([first]);
      expect(await expectOk(fixture.clients.listDeletedBefore(first.deletedAt ?? '', 10))).toEqual([]);
    });

    it('redacts a client: its onboarding data and child rows gone, its history reasons replaced', async () => {
      const fixture = await openFixture(setup);
      for (const clientType of ['INDIVIDUAL', 'ENTITY'] as const) {
        const client = await insertClient(
          fixture,
          storedClientFixture({ managerId: randomUUID(), clientType, createdAt: instantAfter(base, 0) }),
        );
        const asked = {
          ...client,
          status: 'RESUBMISSION_REQUIRED' as const,
          onboardingResubmissionReason: 'why',
        };
        const reasonEntry = transitionEntry(
          'ONBOARDING_UNDER_REVIEW',
          'RESUBMISSION_REQUIRED',
          instantAfter(base, 1),
          'compliance:contract-tests',
          'A personal reason',
        );
        await expectOk(fixture.clients.update(asked, 'ONBOARDING_UNDER_REVIEW', reasonEntry));
        const deleted = { ...asked, status: 'DELETED' as const, deletedAt: instantAfter(base, 2) };
        const deleteEntry = transitionEntry('RESUBMISSION_REQUIRED', 'DELETED', instantAfter(base, 2));
        await expectOk(fixture.clients.update(deleted, 'RESUBMISSION_REQUIRED', deleteEntry));

        const redacted = redactClient(
          { ...deleted, updatedAt: instantAfter(base, 3) },
          instantAfter(base, 3),
        );
        await expectOk(fixture.clients.redact(redacted));
        await expectOk(fixture.clients.redact(redacted));

        expect(await fixture.inspect.readClient(client.id)).toEqual(redacted);
        expect(await expectOk(fixture.clients.findById(client.id))).toEqual(redacted);
        expect(redacted).toMatchObject({ individualProfile: null, company: null, bankAccounts: [] });
        expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([
          creationEntryFor(client),
          { ...reasonEntry, reason: REDACTED_VALUE },
          deleteEntry,
        ]);
      }
      // A client that is not there stays absent.
      const absent = storedClientFixture({ managerId: randomUUID(), status: 'DELETED' });
      await expectOk(fixture.clients.redact(redactClient(absent, instantAfter(base, 3))));
      expect(await fixture.inspect.readClient(absent.id)).toBeNull();
    });

    it('refuses a second client with a taken id and keeps the first as it was', async () => {
      const fixture = await openFixture(setup);
      const first = await insertClient(fixture, storedClientFixture({ managerId: randomUUID() }));
      const again = storedClientFixture({ id: first.id, managerId: randomUUID(), clientType: 'ENTITY' });
      await expectErr(fixture.clients.insert(again, creationEntryFor(again)));
      expect(await fixture.inspect.readClient(first.id)).toEqual(first);
      expect(await fixture.inspect.readStatusHistory(first.id)).toEqual([creationEntryFor(first)]);
    });

    it('lists the screened clients (CLEAR or POSSIBLE_MATCH) of every manager by id, after `after`', async () => {
      const fixture = await openFixture(setup);
      // Ids above every random one, so a shared backend lists only these after `floor`.
      const floor = 'ffffffff-ffff-4fff-8fff-000000000000';
      const highId = () => `ffffffff-ffff-4fff-8fff-${randomUUID().slice(-12)}`;
      const screened = (status: 'PENDING' | 'CLEAR' | 'POSSIBLE_MATCH' | null): StoredClient => ({
        ...storedClientFixture({ id: highId(), managerId: randomUUID() }),
        screening: status === null ? null : { status, screenedAt: null, hits: [] },
      });
      const clients = [screened('CLEAR'), screened('PENDING'), screened('POSSIBLE_MATCH'), screened(null)];
      clients.push(screened('CLEAR'));
      for (const client of clients) await insertClient(fixture, client);
      const listed = clients
        .filter(
          (client) => client.screening?.status === 'CLEAR' || client.screening?.status === 'POSSIBLE_MATCH',
        )
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const [one, two, three] = listed as [StoredClient, StoredClient, StoredClient];

      expect(await expectOk(fixture.clients.listScreened(floor, 10))).toEqual(listed);
      expect(await expectOk(fixture.clients.listScreened(floor, 2))).toEqual([one, two]);
      expect(await expectOk(fixture.clients.listScreened(one.id, 10))).toEqual([two, three]);
      expect(await expectOk(fixture.clients.listScreened(three.id, 10))).toEqual([]);
    });

    it('stores the screening as given: on insert, on update, and alone with updateScreening (with the updatedAt given)', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const pending: StoredClient = {
        ...storedClientFixture({ managerId, clientType: 'ENTITY', createdAt: instantAfter(base, 0) }),
        screening: { status: 'PENDING', screenedAt: null, hits: [] },
      };
      await insertClient(fixture, pending);
      expect(await fixture.inspect.readClient(pending.id)).toEqual(pending);

      const screening: StoredClient['screening'] = {
        status: 'POSSIBLE_MATCH',
        screenedAt: instantAfter(base, 3),
        hits: [
          {
            id: randomUUID(),
            field: 'companyDirectorsAndUbos.ubos[1]',
            name: 'Zoë "Ünal" Ørsted',
            listName: 'EU Financial Sanctions Files',
            matchedName: 'Zoe Unal Orsted',
            score: 0.9375,
            targetId: 'eu-fsf-zoe-orsted',
            explanation: {
              summary: '"orsted" = "orsted" (rare, 61% of the weight); "zoe" = "zoe"; "unal" ≈ "ünal"',
              tokens: [
                { subject: 'orsted', listed: 'orsted', kind: 'EXACT', similarity: 1, weight: 0.61 },
                { subject: 'zoe', listed: 'zoe', kind: 'EXACT', similarity: 1, weight: 0.22 },
                { subject: 'unal', listed: 'unal', kind: 'PHONETIC', similarity: 0.9, weight: 0.17 },
              ],
              unmatchedSubject: [],
              unmatchedListed: [],
              country: { subject: 'DK', listed: ['dk', 'tr'], outcome: 'MATCH' },
              birthDate: { subject: '1972-05-06', listed: ['1971-02-03', '1972'], outcome: 'MATCH' },
            },
            entry: {
              name: 'Zoe Unal ORSTED',
              aliases: ['Зое Орстед', 'Z. Orsted'],
              datasets: ['EU Financial Sanctions Files', 'UK HMT'],
              countries: ['dk', 'tr'],
              birthDates: ['1971-02-03', '1972'],
              schema: 'Person',
            },
            resolution: null,
          },
          {
            id: randomUUID(),
            field: 'company',
            name: 'Acme SAS',
            listName: 'OFAC SDN',
            matchedName: 'ACME S.A.S.',
            score: 0.91,
            targetId: 'ofac-12345',
            explanation: null,
            entry: null,
            resolution: {
              decision: 'DISMISSED',
              reason: 'Another registration number 🏢',
              actor: 'compliance-1',
              at: instantAfter(base, 4),
            },
          },
        ],
      };
      const screenedAt = instantAfter(base, 5);
      expect(await expectOk(fixture.clients.updateScreening(pending.id, screening, screenedAt))).toBe(true);
      const screened = { ...pending, screening, updatedAt: screenedAt };
      // Nothing else of the client changed (updatedAt: the one given), and no history entry was added.
      expect(await fixture.inspect.readClient(pending.id)).toEqual(screened);
      expect(await fixture.inspect.readStatusHistory(pending.id)).toEqual([creationEntryFor(pending)]);
      expect(await expectOk(fixture.clients.findById(pending.id))).toEqual(screened);
      // Like an UPDATE of no row: false, and no client appears.
      const unknownId = randomUUID();
      expect(await expectOk(fixture.clients.updateScreening(unknownId, screening, screenedAt))).toBe(false);
      expect(await expectOk(fixture.clients.updateAssignment(unknownId, null, screenedAt))).toBe(false);
      expect(await fixture.inspect.readClient(unknownId)).toBeNull();

      // A status update writes the screening it is given (a resubmission screens again).
      const later = instantAfter(base, 10);
      const rescreened: StoredClient = {
        ...screened,
        status: 'RESUBMISSION_REQUIRED',
        screening: { status: 'PENDING', screenedAt: null, hits: [] },
        updatedAt: later,
      };
      await expectOk(
        fixture.clients.update(
          rescreened,
          'ONBOARDING_UNDER_REVIEW',
          transitionEntry('ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', later),
        ),
      );
      expect(await fixture.inspect.readClient(pending.id)).toEqual(rescreened);
      const cleared = instantAfter(base, 11);
      expect(await expectOk(fixture.clients.updateScreening(pending.id, null, cleared))).toBe(true);
      expect(await fixture.inspect.readClient(pending.id)).toEqual({
        ...rescreened,
        screening: null,
        updatedAt: cleared,
      });
    });
  });

  describe(`UnitOfWork contract: ${name}`, () => {
    it('commits everything written through the stores when the work is Ok', async () => {
      const fixture = await openFixture(setup);
      const client = storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) });
      const document = documentRecordFixture(client, 'passport.pdf');
      const approved: StoredClient = { ...client, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' };
      const approveEntry = transitionEntry(
        'ONBOARDING_UNDER_REVIEW',
        'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
        instantAfter(base, 1),
      );

      const value = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .insert(client, creationEntryFor(client))
            .andThen(() => stores.documents.insertMany([document]))
            .andThen(() => stores.clients.update(approved, 'ONBOARDING_UNDER_REVIEW', approveEntry))
            .map(() => 'committed' as const),
        ),
      );

      expect(value).toBe('committed');
      expect(await fixture.inspect.readClient(client.id)).toEqual(approved);
      expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([
        creationEntryFor(client),
        approveEntry,
      ]);
      expect(await fixture.inspect.readDocumentRecord(document.key)).toEqual(document);
    });

    it('keeps nothing when the work resolves Err', async () => {
      const fixture = await openFixture(setup);
      const client = storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) });
      const document = documentRecordFixture(client, 'passport.pdf');

      const error = await expectErr(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .insert(client, creationEntryFor(client))
            .andThen(() => stores.documents.insertMany([document]))
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );

      expect(error).toEqual({ type: 'DecidedAgainst' });
      expect(await fixture.inspect.readClient(client.id)).toBeNull();
      expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([]);
      expect(await fixture.inspect.readDocumentRecord(document.key)).toBeNull();
      expect(await expectOk(fixture.clients.findById(client.id))).toBeNull();
    });

    it('rolls back an update of an existing client and its history entry on Err', async () => {
      const fixture = await openFixture(setup);
      const client = await insertClient(
        fixture,
        storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) }),
      );
      await expectErr(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .update(
              { ...client, status: 'DELETED', deletedAt: instantAfter(base, 1), bankAccounts: [] },
              'ONBOARDING_UNDER_REVIEW',
              transitionEntry('ONBOARDING_UNDER_REVIEW', 'DELETED', instantAfter(base, 1)),
            )
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      expect(await fixture.inspect.readClient(client.id)).toEqual(client);
      expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([creationEntryFor(client)]);
    });

    it('lets the work read its own writes, while readers outside see only committed state', async () => {
      const fixture = await openFixture(setup);
      const client = storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) });
      const document = documentRecordFixture(client, 'proof of address.pdf');
      const seenOutsideDuringWork = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .insert(client, creationEntryFor(client))
            .andThen(() => stores.documents.insertMany([document]))
            .andThen(() => stores.clients.findById(client.id))
            .andThen((inside) => {
              expect(inside).toEqual(client);
              return stores.clients.statusHistory(client.id);
            })
            .andThen((history) => {
              expect(history).toEqual([creationEntryFor(client)]);
              return stores.documents.findByKeys(client.managerId, [document.key]);
            })
            .andThen((documents) => {
              expect(documents).toEqual([document]);
              return stores.clients.list({ managerId: client.managerId, limit: 10 });
            })
            .andThen((listed) => {
              expect(listed.map((c) => c.id)).toEqual([client.id]);
              return okAsync(undefined);
            })
            .andThen(() => fixture.clients.findById(client.id)),
        ),
      );

      expect(seenOutsideDuringWork).toBeNull();
      expect(await expectOk(fixture.clients.findById(client.id))).toEqual(client);
    });

    it('keeps nothing of a work whose inner write rejects or that throws', async () => {
      const fixture = await openFixture(setup);
      const managerId = randomUUID();
      const rejected = storedClientFixture({ managerId, createdAt: instantAfter(base, 0) });
      const thrown = storedClientFixture({ managerId, createdAt: instantAfter(base, 1) });

      const rejection = await expectErr(
        fixture.unitOfWork.transaction((stores) =>
          ResultAsync.fromSafePromise(
            (async () => {
              await stores.clients.insert(rejected, creationEntryFor(rejected));
              throw new Error('the driver failed half-way');
            })(),
          ),
        ),
      );
      expect(rejection).toMatchObject({ type: 'StorageUnavailable' });

      const throwing = await expectErr(
        fixture.unitOfWork.transaction((stores) => {
          void stores.clients.insert(thrown, creationEntryFor(thrown));
          throw new Error('a bug in the work');
        }),
      );
      expect(throwing).toMatchObject({ type: 'StorageUnavailable' });

      for (const client of [rejected, thrown]) {
        expect(await fixture.inspect.readClient(client.id)).toBeNull();
        expect(await fixture.inspect.readStatusHistory(client.id)).toEqual([]);
      }
      // The backend is still usable afterwards (no lock or connection left behind).
      const after = storedClientFixture({ managerId, createdAt: instantAfter(base, 2) });
      await expectOk(
        fixture.unitOfWork.transaction((stores) => stores.clients.insert(after, creationEntryFor(after))),
      );
      expect(await fixture.inspect.readClient(after.id)).toEqual(after);
    });

    it('runs two transactions on one client one after the other: exactly one wins', async () => {
      const fixture = await openFixture(setup);
      const client = await insertClient(
        fixture,
        storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) }),
      );
      const moveTo = (to: ClientStatus, minute: number) =>
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .findForUpdate(client.id)
            // Hold the lock a while, so that the other transaction really has to wait for it.
            .andThen((current) => pause(40).map(() => current))
            .andThen((current) => {
              if (current === null) return errAsync({ type: 'Vanished' as const });
              if (current.status !== 'ONBOARDING_UNDER_REVIEW') {
                return errAsync({ type: 'SawStatus' as const, status: current.status });
              }
              const at = instantAfter(base, minute);
              return stores.clients
                .update(
                  { ...current, status: to, updatedAt: at },
                  current.status,
                  transitionEntry(current.status, to, at),
                )
                .map(() => to);
            }),
        );

      const outcomes = await Promise.all([
        moveTo('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 1),
        moveTo('RESUBMISSION_REQUIRED', 2),
      ]);
      const winners = outcomes.filter((outcome) => outcome.isOk());
      const losers = outcomes.filter((outcome) => outcome.isErr());
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      const winner = winners[0]?.isOk() ? winners[0].value : expect.fail('one transaction won');
      const loser = losers[0]?.isErr() ? losers[0].error : expect.fail('one transaction lost');
      // The loser either read the winner's status (serialized by the lock) or was refused as stale.
      expect([
        { type: 'SawStatus', status: winner },
        { type: 'StaleClientState', clientId: client.id, expectedStatus: 'ONBOARDING_UNDER_REVIEW' },
      ]).toContainEqual(loser);

      const stored = await fixture.inspect.readClient(client.id);
      expect(stored?.status).toBe(winner);
      const history = await fixture.inspect.readStatusHistory(client.id);
      expect(history.map((entry) => [entry.from, entry.to])).toEqual([
        [null, 'ONBOARDING_UNDER_REVIEW'],
        ['ONBOARDING_UNDER_REVIEW', winner],
      ]);
    });

    it('commits or rolls back an idempotency completion together with the transaction', async (context) => {
      const fixture = await openFixture(setup);
      const { idempotency } = fixture;
      if (idempotency === undefined) {
        context.skip('this setup provides no IdempotencyStore');
        return;
      }
      const now = new Date();
      const claimOf = (scope: string, token: string) => ({
        scope,
        owner: scope.split(' ')[0] ?? scope,
        maxLiveRecordsPerOwner: null,
        key: 'create-client',
        token,
        fingerprint: 'f'.repeat(64),
        now,
        lockTtlMs: 60_000,
        recordTtlMs: 86_400_000,
      });
      const outcome = {
        kind: 'command',
        ok: true,
        value: { id: randomUUID(), nested: { list: [1, 'two', null] } },
      } as const;

      const rolledBack = claimOf(`manager:${randomUUID()} POST /clients`, randomUUID());
      expect(await expectOk(idempotency.claim(rolledBack))).toEqual({ type: 'Claimed' });
      const doomed = storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) });
      await expectErr(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .insert(doomed, creationEntryFor(doomed))
            .andThen(() => stores.idempotency.complete(rolledBack, outcome, now))
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      // The completion went with the rollback: the key is still held, not replayed.
      expect(await expectOk(idempotency.claim(claimOf(rolledBack.scope, randomUUID())))).toEqual({
        type: 'InProgress',
      });
      expect(await fixture.inspect.readClient(doomed.id)).toBeNull();

      const committed = claimOf(`manager:${randomUUID()} POST /clients`, randomUUID());
      expect(await expectOk(idempotency.claim(committed))).toEqual({ type: 'Claimed' });
      const kept = storedClientFixture({ managerId: randomUUID(), createdAt: instantAfter(base, 0) });
      await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .insert(kept, creationEntryFor(kept))
            .andThen(() => stores.idempotency.complete(committed, outcome, now))
            .andThen(() => okAsync(undefined)),
        ),
      );
      expect(await expectOk(idempotency.claim(claimOf(committed.scope, randomUUID())))).toEqual({
        type: 'Replay',
        outcome,
      });
      expect(await fixture.inspect.readClient(kept.id)).toEqual(kept);
    });
  });
};
