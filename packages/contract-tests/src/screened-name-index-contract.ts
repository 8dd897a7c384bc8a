import { randomUUID } from 'node:crypto';
import type {
  IndexedScreeningName,
  ListChangeJob,
  ScreenedNameCandidate,
  ScreenedNameIndex,
  UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type ScreenedNameIndexContractFixture = Teardown & {
  readonly screenedNames: ScreenedNameIndex;
  /** The unit of work whose transactions write the index and enqueue list changes. */
  readonly unitOfWork: UnitOfWork;
  /** Makes a client row the index may refer to (PostgreSQL's rows reference clients). */
  readonly prepareClient: (clientId: string) => Promise<void>;
  readonly inspect: {
    /** The client's indexed names as the back end holds them (read directly), by field. */
    readNames(clientId: string): Promise<IndexedScreeningName[]>;
    /** The queued monitoring jobs of a list version, by batch. */
    readListChangeJobs(version: string): Promise<ListChangeJob[]>;
  };
};

export type ScreenedNameIndexContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<ScreenedNameIndexContractFixture>;
};

/** Keys no other test uses, so that tests sharing one store never see each other's names. */
const freshKeys = () => {
  const run = randomUUID();
  return (word: string) => `${word}-${run}`;
};

const byField = (names: readonly IndexedScreeningName[]) =>
  [...names].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));

const jobOf = (version: string, batch: number, id: string): ListChangeJob => ({
  type: 'monitor-list-change',
  version,
  batch,
  targets: [{ id, names: ['Ivan Petrov', 'Иван Петров'] }],
});

/**
 * ScreenedNameIndex (core/src/ports/screened-name-index.ts) and the list-change half of the
 * ScreeningJobQueue: the index of screened names that monitoring matches a new list version
 * against, and the one enqueue per list version.
 */
export const runScreenedNameIndexContract = ({ name, setup }: ScreenedNameIndexContractOptions): void => {
  describe(`ScreenedNameIndex contract: ${name}`, () => {
    it("replaces a client's names whole: written with their keys, a field gone is gone, none empties it", async () => {
      const { screenedNames, prepareClient, inspect } = await openFixture(setup);
      const key = freshKeys();
      const clientId = randomUUID();
      await prepareClient(clientId);
      const names: IndexedScreeningName[] = [
        {
          field: 'company',
          name: 'Petrov Trading LLC',
          kind: 'COMPANY',
          // The client's country travels with the name: the provider weighs it.
          country: 'CY',
          keys: [key('petrov'), key('trading')],
        },
        {
          field: 'representatives[0]',
          name: 'Ivan Petrov',
          kind: 'PERSON',
          // And a person's birth date: monitoring weighs it as the full screening did.
          birthDate: '1961-04-12',
          keys: [key('ivan'), key('petrov')],
        },
        // A bank account's owner may be either: the index keeps the kind as the screening gave it.
        {
          field: 'bankAccounts[0].thirdPartyBankAccountOwnerName',
          name: 'Petrov Holdings',
          kind: 'PERSON_OR_COMPANY',
          country: 'CY',
          keys: [key('petrov'), key('holdings')],
        },
      ];
      await expectOk(screenedNames.replace(clientId, names));
      expect(byField(await inspect.readNames(clientId))).toEqual(byField(names));
      // A candidate carries the evidence it was indexed with.
      expect(await expectOk(screenedNames.candidates({ keys: [key('ivan')], limit: 10 }))).toEqual([
        { ...names[1], clientId },
      ]);

      const renamed: IndexedScreeningName[] = [
        {
          field: 'company',
          name: 'Petrova Holding',
          kind: 'COMPANY',
          keys: [key('petrova'), key('holding')],
        },
      ];
      await expectOk(screenedNames.replace(clientId, renamed));
      expect(await inspect.readNames(clientId)).toEqual(renamed);
      expect(await expectOk(screenedNames.candidates({ keys: [key('ivan')], limit: 10 }))).toEqual([]);

      await expectOk(screenedNames.replace(clientId, []));
      expect(await inspect.readNames(clientId)).toEqual([]);
      expect(await expectOk(screenedNames.candidates({ keys: [key('petrova')], limit: 10 }))).toEqual([]);
    });

    it('answers the names sharing a key, each once, by client and field, page after page', async () => {
      const { screenedNames, prepareClient } = await openFixture(setup);
      const key = freshKeys();
      const clients = Array.from({ length: 5 }, () => randomUUID()).sort();
      for (const clientId of clients) {
        await prepareClient(clientId);
        await expectOk(
          screenedNames.replace(clientId, [
            { field: 'profile', name: 'Anna Ivanova', kind: 'PERSON', keys: [key('anna'), key('ivanova')] },
            { field: 'company', name: 'Orbit GmbH', kind: 'COMPANY', keys: [key('orbit')] },
          ]),
        );
      }
      const other = randomUUID();
      await prepareClient(other);
      await expectOk(
        screenedNames.replace(other, [
          { field: 'profile', name: 'Lena Kurz', kind: 'PERSON', keys: [key('lena')] },
        ]),
      );

      // Two keys of one name: the name once.
      const all = await expectOk(
        screenedNames.candidates({ keys: [key('anna'), key('ivanova'), key('nobody')], limit: 100 }),
      );
      expect(all).toEqual(
        clients.map(
          (clientId): ScreenedNameCandidate => ({
            clientId,
            field: 'profile',
            name: 'Anna Ivanova',
            kind: 'PERSON',
            keys: [key('anna'), key('ivanova')],
          }),
        ),
      );

      const paged: ScreenedNameCandidate[] = [];
      let after: { clientId: string; field: string } | undefined;
      for (;;) {
        const page = await expectOk(
          screenedNames.candidates({
            keys: [key('anna'), key('orbit')],
            limit: 3,
            ...(after === undefined ? {} : { after }),
          }),
        );
        expect(page.length).toBeLessThanOrEqual(3);
        paged.push(...page);
        const last = page.at(-1);
        if (page.length < 3 || last === undefined) break;
        after = { clientId: last.clientId, field: last.field };
      }
      expect(paged.map(({ clientId, field }) => [clientId, field])).toEqual(
        clients.flatMap((clientId) => [
          [clientId, 'company'],
          [clientId, 'profile'],
        ]),
      );
    });

    it('writes nothing of a transaction that rolls back', async () => {
      const { screenedNames, unitOfWork, prepareClient, inspect } = await openFixture(setup);
      const key = freshKeys();
      const clientId = randomUUID();
      await prepareClient(clientId);
      await expectErr(
        unitOfWork.transaction((tx) =>
          tx.screenedNames
            .replace(clientId, [
              { field: 'profile', name: 'Rolled Back', kind: 'PERSON', keys: [key('rolled')] },
            ])
            .andThen(() => errAsync('changed my mind')),
        ),
      );
      expect(await inspect.readNames(clientId)).toEqual([]);
      expect(await expectOk(screenedNames.candidates({ keys: [key('rolled')], limit: 10 }))).toEqual([]);
    });

    it("enqueues a list version's jobs once: a version given again, even at the same moment, enqueues nothing", async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const version = `list-${randomUUID()}`;
      const jobs = [jobOf(version, 0, 'NK-1'), jobOf(version, 1, 'NK-2')];
      const both = await Promise.all([
        unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(version, jobs)),
        unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(version, jobs)),
      ]);
      expect(both.map((outcome) => outcome._unsafeUnwrap()).sort()).toEqual([false, true]);
      expect(await inspect.readListChangeJobs(version)).toEqual(jobs);
      expect(
        await expectOk(unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(version, jobs))),
      ).toBe(false);
      expect(await inspect.readListChangeJobs(version)).toEqual(jobs);

      // A version with no changed target is recorded all the same.
      const empty = `list-${randomUUID()}`;
      expect(
        await expectOk(unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(empty, []))),
      ).toBe(true);
      expect(
        await expectOk(unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(empty, []))),
      ).toBe(false);
    });

    it('enqueues nothing of a transaction that rolls back, and the version can be given again', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const version = `list-${randomUUID()}`;
      const jobs = [jobOf(version, 0, 'NK-3')];
      await expectErr(
        unitOfWork.transaction((tx) =>
          tx.screeningJobs.enqueueListChange(version, jobs).andThen(() => errAsync('changed my mind')),
        ),
      );
      expect(await inspect.readListChangeJobs(version)).toEqual([]);
      expect(
        await expectOk(unitOfWork.transaction((tx) => tx.screeningJobs.enqueueListChange(version, jobs))),
      ).toBe(true);
      expect(await inspect.readListChangeJobs(version)).toEqual(jobs);
    });
  });
};
