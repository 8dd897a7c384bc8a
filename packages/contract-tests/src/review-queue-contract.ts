import { randomUUID } from 'node:crypto';
import type { ClientStatus, ClientType, ReviewAssignment } from '@onboarding-kit/core';
import type { StoredClient } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { creationEntryFor, storedClientFixture, transitionEntry } from './client-fixtures.js';
import type { ClientRepositoryContractOptions } from './client-repository-contract.js';
import { expectOk } from './result-assertions.js';
import { openFixture } from './test-fixture.js';

/**
 * Each test works in a window of instants of its own, earlier than every other test's (each one a
 * day before the last, from 1960 down): the queue is every manager's, and "oldest first" then
 * reaches the test's own clients first on a shared backend.
 */
let windowsOpened = 0;
const nextWindow = (): Date => {
  windowsOpened += 1;
  return new Date(Date.UTC(1960, 0, 1) - windowsOpened * 86_400_000);
};
const at = (window: Date, seconds: number): string =>
  new Date(window.getTime() + seconds * 1000).toISOString();
/** Just before the window: a cursor from which the window's clients come first. */
const justBefore = (window: Date) => ({
  createdAt: new Date(window.getTime() - 1).toISOString(),
  id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
});

const pause = (ms: number) =>
  ResultAsync.fromSafePromise(new Promise<void>((resolve) => setTimeout(resolve, ms)));

/**
 * The review queue's reads and the assignment (ClientRepository: `reviewQueue`, `countReviewQueue`,
 * `lockNextUnassigned`, `updateAssignment`): every manager's waiting clients, oldest first, and an
 * assignment that no other write changes.
 */
export const runReviewQueueContract = ({ name, setup }: ClientRepositoryContractOptions): void => {
  describe(`ClientRepository review queue contract: ${name}`, () => {
    type Made = {
      status?: ClientStatus;
      clientType?: ClientType;
      second: number;
      screening?: 'PENDING' | null;
    };
    const insertAll = async (
      fixture: Awaited<ReturnType<typeof setup>>,
      window: Date,
      made: readonly Made[],
    ): Promise<StoredClient[]> => {
      const clients: StoredClient[] = [];
      for (const each of made) {
        const client: StoredClient = {
          ...storedClientFixture({
            managerId: randomUUID(),
            clientType: each.clientType ?? 'INDIVIDUAL',
            createdAt: at(window, each.second),
            ...(each.status === undefined ? {} : { status: each.status }),
          }),
          screening: each.screening === 'PENDING' ? { status: 'PENDING', screenedAt: null, hits: [] } : null,
        };
        await expectOk(fixture.clients.insert(client, creationEntryFor(client)));
        clients.push(client);
      }
      return clients;
    };

    it('reads one waiting status oldest first, every manager, with its filters and a cursor', async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [a, b, c, d, e] = await insertAll(fixture, window, [
        { second: 5 },
        { second: 1, clientType: 'ENTITY' },
        { second: 3, screening: 'PENDING' },
        { second: 2, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' },
        { second: 4, status: 'VERIFIED' },
      ]);
      const ids = (clients: readonly StoredClient[]) => clients.map((client) => client.id);
      const underReview = { status: 'ONBOARDING_UNDER_REVIEW' as const, after: justBefore(window) };
      const firstThree = await expectOk(fixture.clients.reviewQueue({ ...underReview, limit: 3 }));
      expect(ids(firstThree)).toEqual(ids([b, c, a] as StoredClient[]));
      // The cursor is exclusive, and the limit holds.
      const afterB = await expectOk(
        fixture.clients.reviewQueue({
          status: 'ONBOARDING_UNDER_REVIEW',
          after: { createdAt: b?.createdAt ?? '', id: b?.id ?? '' },
          limit: 1,
        }),
      );
      expect(ids(afterB)).toEqual([c?.id]);
      const entities = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, clientType: 'ENTITY', limit: 1 }),
      );
      expect(ids(entities)).toEqual([b?.id]);
      // After the entity, the individuals that follow it are not entities.
      const entitiesAfterB = await expectOk(
        fixture.clients.reviewQueue({
          status: 'ONBOARDING_UNDER_REVIEW',
          clientType: 'ENTITY',
          after: { createdAt: b?.createdAt ?? '', id: b?.id ?? '' },
          limit: 2,
        }),
      );
      expect(ids(entitiesAfterB)).not.toContain(c?.id);
      expect(ids(entitiesAfterB)).not.toContain(a?.id);
      const pending = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, screening: 'PENDING', limit: 1 }),
      );
      expect(ids(pending)).toEqual([c?.id]);
      const unscreened = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, screening: 'NONE', limit: 2 }),
      );
      expect(ids(unscreened)).toEqual(ids([b, a] as StoredClient[]));
      const terms = await expectOk(
        fixture.clients.reviewQueue({
          ...underReview,
          status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
          limit: 1,
        }),
      );
      expect(ids(terms)).toEqual([d?.id]);
      // A verified client is in no queue.
      const all = await expectOk(fixture.clients.reviewQueue({ ...underReview, limit: 100 }));
      expect(ids(all)).not.toContain(e?.id);
    });

    it('stores an assignment alone, filters and counts by assignee, and no other write changes it', async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [a, b, c] = (await insertAll(fixture, window, [
        { second: 1 },
        { second: 2 },
        { second: 3, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' },
      ])) as [StoredClient, StoredClient, StoredClient];
      const reviewer = `reviewer-${randomUUID()}`;
      const assignment: ReviewAssignment = { complianceId: reviewer, assignedAt: at(window, 10) };
      expect(await expectOk(fixture.clients.updateAssignment(a.id, assignment))).toBe(true);
      expect(await expectOk(fixture.clients.updateAssignment(c.id, assignment))).toBe(true);
      expect(await expectOk(fixture.clients.updateAssignment(randomUUID(), assignment))).toBe(false);
      const stored = await fixture.inspect.readClient(a.id);
      expect(stored?.assignee).toEqual(assignment);
      // updateAssignment leaves the status, the history and updatedAt as they were.
      expect(stored?.updatedAt).toBe(a.updatedAt);
      expect(await fixture.inspect.readStatusHistory(a.id)).toHaveLength(1);

      const mine = await expectOk(
        fixture.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', assigneeId: reviewer, limit: 10 }),
      );
      expect(mine.map((client) => client.id)).toEqual([a.id]);
      expect(mine[0]?.assignee).toEqual(assignment);
      const unassigned = await expectOk(
        fixture.clients.reviewQueue({
          status: 'ONBOARDING_UNDER_REVIEW',
          assigneeId: null,
          after: justBefore(window),
          limit: 1,
        }),
      );
      expect(unassigned.map((client) => client.id)).toEqual([b.id]);
      expect(await expectOk(fixture.clients.countReviewQueue({ assigneeId: reviewer }))).toEqual({
        ONBOARDING_UNDER_REVIEW: 1,
        WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 1,
      });

      // A status move writes the whole client: the assignment it read or not, it stays.
      const movedAt = at(window, 20);
      await expectOk(
        fixture.clients.update(
          { ...a, assignee: null, status: 'RESUBMISSION_REQUIRED', updatedAt: movedAt },
          'ONBOARDING_UNDER_REVIEW',
          transitionEntry('ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', movedAt),
        ),
      );
      expect((await fixture.inspect.readClient(a.id))?.assignee).toEqual(assignment);
      // A client out of the waiting statuses is counted nowhere.
      expect(await expectOk(fixture.clients.countReviewQueue({ assigneeId: reviewer }))).toEqual({
        ONBOARDING_UNDER_REVIEW: 0,
        WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 1,
      });
      expect(await expectOk(fixture.clients.updateAssignment(c.id, null))).toBe(true);
      expect((await fixture.inspect.readClient(c.id))?.assignee).toBeNull();

      // An insert starts unassigned whatever it is given.
      const inserted = {
        ...storedClientFixture({ managerId: randomUUID(), createdAt: at(window, 30) }),
        assignee: assignment,
      };
      await expectOk(fixture.clients.insert(inserted, creationEntryFor(inserted)));
      expect((await fixture.inspect.readClient(inserted.id))?.assignee).toBeNull();
    });

    it('locks the oldest unassigned client of a status, and two transactions at once take two different ones', async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [a, b, c] = (await insertAll(fixture, window, [
        { second: 1 },
        { second: 2, clientType: 'ENTITY' },
        { second: 3 },
      ])) as [StoredClient, StoredClient, StoredClient];
      const takeNext = (reviewer: string, filter: { clientType?: ClientType } = {}) =>
        fixture.unitOfWork.transaction((stores) =>
          stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', filter).andThen((client) =>
            client === null
              ? okAsync(null)
              : // Hold the lock a while, so that the other transaction runs while it is held.
                pause(40)
                  .andThen(() =>
                    stores.clients.updateAssignment(client.id, {
                      complianceId: reviewer,
                      assignedAt: at(window, 9),
                    }),
                  )
                  .map(() => client.id),
          ),
        );
      const taken = (await Promise.all([takeNext('first'), takeNext('second')])).map((outcome) =>
        outcome.isOk() ? outcome.value : expect.fail(`transaction failed: ${JSON.stringify(outcome.error)}`),
      );
      expect(new Set(taken)).toEqual(new Set([a.id, b.id]));
      expect((await fixture.inspect.readClient(a.id))?.assignee?.complianceId).toMatch(/first|second/);
      // The filter applies; with every match taken, the next one is of another window (later) or none.
      const entity = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', { clientType: 'ENTITY' }),
        ),
      );
      expect(entity?.id).not.toBe(b.id);
      const next = await expectOk(takeNext('third'));
      expect(next).toBe(c.id);
    });
  });
};
