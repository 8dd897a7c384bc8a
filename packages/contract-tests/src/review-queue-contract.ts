import { randomUUID } from 'node:crypto';
import type { ClientStatus, ClientType, ReviewAssignment } from '@onboarding-kit/core';
import type { ReviewQueuePosition, ReviewQueueRow, StoredClient } from '@onboarding-kit/core/adapter';
import { okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { creationEntryFor, storedClientFixture, transitionEntry } from './client-fixtures.js';
import type { ClientRepositoryContractOptions } from './client-repository-contract.js';
import { expectOk } from './result-assertions.js';
import { openFixture } from './test-fixture.js';

/** Every test works in its own window of instants (a day each, from 1960 down). */
let windowsOpened = 0;
const nextWindow = (): Date => {
  windowsOpened += 1;
  return new Date(Date.UTC(1960, 0, 1) - windowsOpened * 86_400_000);
};
const at = (window: Date, seconds: number): string =>
  new Date(window.getTime() + seconds * 1000).toISOString();
const ids = (rows: readonly { readonly client: StoredClient }[]) => rows.map((row) => row.client.id);
const positionOf = (row: ReviewQueueRow | undefined): ReviewQueuePosition => ({
  turn: row?.turn ?? 0,
  createdAt: row?.client.createdAt ?? '',
  id: row?.client.id ?? '',
});

const pause = (ms: number) =>
  ResultAsync.fromSafePromise(new Promise<void>((resolve) => setTimeout(resolve, ms)));

/**
 * The review queue's reads and the assignment (ClientRepository: `reviewQueue`, `countReviewQueue`,
 * `lockNextUnassigned`, `updateAssignment`): every manager's waiting clients, the managers taking
 * turns (`ReviewQueuePosition`), and an assignment that no other write changes. The queue is every
 * manager's and a turn depends on who waits, so `setup` gives each test a store where nobody waits.
 */
export const runReviewQueueContract = ({ name, setup }: ClientRepositoryContractOptions): void => {
  describe(`ClientRepository review queue contract: ${name}`, () => {
    type Made = {
      status?: ClientStatus;
      clientType?: ClientType;
      second: number;
      screening?: 'PENDING' | null;
      managerId?: string;
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
            managerId: each.managerId ?? randomUUID(),
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

    it('reads one waiting status in queue order, every manager, with its filters and a cursor', async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      // One client per manager: every one takes the first turn, and the queue is oldest first.
      const [a, b, c, d, e] = await insertAll(fixture, window, [
        { second: 5 },
        { second: 1, clientType: 'ENTITY' },
        { second: 3, screening: 'PENDING' },
        { second: 2, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' },
        { second: 4, status: 'VERIFIED' },
      ]);
      const underReview = { status: 'ONBOARDING_UNDER_REVIEW' as const };
      const firstThree = await expectOk(fixture.clients.reviewQueue({ ...underReview, limit: 3 }));
      expect(ids(firstThree)).toEqual([b?.id, c?.id, a?.id]);
      expect(firstThree.map((row) => row.turn)).toEqual([0, 0, 0]);
      // The cursor is exclusive, and the limit holds.
      const afterB = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, after: positionOf(firstThree[0]), limit: 1 }),
      );
      expect(ids(afterB)).toEqual([c?.id]);
      const entities = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, clientType: 'ENTITY', limit: 1 }),
      );
      expect(ids(entities)).toEqual([b?.id]);
      // After the entity, the individuals that follow it are not entities.
      const entitiesAfterB = await expectOk(
        fixture.clients.reviewQueue({
          ...underReview,
          clientType: 'ENTITY',
          after: positionOf(firstThree[0]),
          limit: 2,
        }),
      );
      expect(ids(entitiesAfterB)).toEqual([]);
      const pending = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, screening: 'PENDING', limit: 1 }),
      );
      expect(ids(pending)).toEqual([c?.id]);
      const unscreened = await expectOk(
        fixture.clients.reviewQueue({ ...underReview, screening: 'NONE', limit: 2 }),
      );
      expect(ids(unscreened)).toEqual([b?.id, a?.id]);
      const terms = await expectOk(
        fixture.clients.reviewQueue({ status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', limit: 1 }),
      );
      expect(ids(terms)).toEqual([d?.id]);
      // A verified client is in no queue.
      const all = await expectOk(fixture.clients.reviewQueue({ ...underReview, limit: 100 }));
      expect(ids(all)).not.toContain(e?.id);
    });

    it("takes managers in turn: one manager's burst takes one place per turn beside every other manager's", async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [flooder, second, third] = [randomUUID(), randomUUID(), randomUUID()];
      const burst = await insertAll(
        fixture,
        window,
        [1, 2, 3, 4, 5].map((second) => ({ second, managerId: flooder })),
      );
      const [late] = await insertAll(fixture, window, [{ second: 10, managerId: second }]);
      const [c1, c2] = await insertAll(fixture, window, [
        { second: 11, managerId: third },
        { second: 12, managerId: third, clientType: 'ENTITY' },
      ]);
      const [a1, a2, a3, a4, a5] = burst;
      const queue = await expectOk(
        fixture.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', limit: 100 }),
      );
      // Each manager's first, oldest first; then each one's second; then the rest of the burst.
      expect(ids(queue)).toEqual([a1, late, c1, a2, c2, a3, a4, a5].map((client) => client?.id));
      expect(queue.map((row) => row.turn)).toEqual([0, 0, 0, 1, 1, 2, 3, 4]);
      // A filter reads the same order (the turns are the status's, not the filter's).
      const individuals = await expectOk(
        fixture.clients.reviewQueue({
          status: 'ONBOARDING_UNDER_REVIEW',
          clientType: 'INDIVIDUAL',
          limit: 3,
        }),
      );
      expect(ids(individuals)).toEqual([a1, late, c1].map((client) => client?.id));
      // The next unassigned client is the first of the queue, not the oldest of the burst's followers.
      const locked = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients
            .lockNextUnassigned('ONBOARDING_UNDER_REVIEW', {})
            .andThen((client) =>
              client === null
                ? okAsync(null)
                : stores.clients
                    .updateAssignment(
                      client.id,
                      { complianceId: 'reviewer', assignedAt: at(window, 30) },
                      at(window, 30),
                    )
                    .map(() => client.id),
            ),
        ),
      );
      expect(locked).toBe(a1?.id);
      const next = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', {}),
        ),
      );
      expect(next?.id).toBe(late?.id);
    });

    it('keeps a waiting client in its place: two reviewers paging while others are decided see each once', async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [flooder, other] = [randomUUID(), randomUUID()];
      const burst = await insertAll(
        fixture,
        window,
        Array.from({ length: 6 }, (_, i) => ({ second: i + 1, managerId: flooder })),
      );
      const [b1, b2] = await insertAll(fixture, window, [
        { second: 20, managerId: other },
        { second: 21, managerId: other },
      ]);
      const everyOne = [...burst, b1, b2] as StoredClient[];
      const leave = (client: StoredClient, second: number) =>
        expectOk(
          fixture.clients.update(
            {
              ...client,
              status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
              updatedAt: at(window, second),
            },
            'ONBOARDING_UNDER_REVIEW',
            transitionEntry(
              'ONBOARDING_UNDER_REVIEW',
              'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
              at(window, second),
            ),
          ),
        );
      // Reviewer one pages by 2. Between its pages reviewer two decides a client (the queue's first,
      // which reviewer one has seen, or the first it has not), and the flooding manager's come on.
      const seen: string[] = [];
      const decided = new Set<string>();
      let after: ReviewQueuePosition | undefined;
      for (let page = 0; page < 10; page += 1) {
        const rows = await expectOk(
          fixture.clients.reviewQueue({
            status: 'ONBOARDING_UNDER_REVIEW',
            limit: 2,
            ...(after === undefined ? {} : { after }),
          }),
        );
        if (rows.length === 0) break;
        seen.push(...ids(rows));
        after = positionOf(rows.at(-1));
        const [first] = await expectOk(
          fixture.clients.reviewQueue({
            status: 'ONBOARDING_UNDER_REVIEW',
            limit: 1,
            ...(page % 2 === 0 ? {} : { after }),
          }),
        );
        if (first !== undefined) {
          await leave(first.client, 100 + page);
          decided.add(first.client.id);
        }
        await insertAll(fixture, window, [{ second: 200 + page, managerId: flooder }]);
      }
      expect(new Set(seen).size, 'no client twice').toBe(seen.length);
      // Every client that waited all along was seen, whoever left the queue meanwhile.
      const waitedThroughout = everyOne.filter((client) => !decided.has(client.id));
      for (const client of waitedThroughout) expect(seen).toContain(client.id);
      // The clients that left took a turn in the status they came to, in the order they came.
      const terms = await expectOk(
        fixture.clients.reviewQueue({ status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', limit: 100 }),
      );
      expect(new Set(ids(terms))).toEqual(decided);
    });

    it("takes a turn at the queue's head, or behind its manager's own: a client coming back waits again", async () => {
      const fixture = await openFixture(setup);
      const window = nextWindow();
      const [flooder, newcomer] = [randomUUID(), randomUUID()];
      const burst = (await insertAll(
        fixture,
        window,
        Array.from({ length: 4 }, (_, i) => ({ second: i + 1, managerId: flooder })),
      )) as [StoredClient, StoredClient, StoredClient, StoredClient];
      const [a1, a2, a3, a4] = burst;
      // The first two leave: the head of the queue is turn 2 now.
      for (const [client, second] of [
        [a1, 10],
        [a2, 11],
      ] as const) {
        await expectOk(
          fixture.clients.update(
            { ...client, status: 'RESUBMISSION_REQUIRED', updatedAt: at(window, second) },
            'ONBOARDING_UNDER_REVIEW',
            transitionEntry('ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', at(window, second)),
          ),
        );
      }
      // Another manager's client joins the round now served, after the client of the same turn that
      // came first; not in front of the whole queue.
      const [fresh] = await insertAll(fixture, window, [{ second: 20, managerId: newcomer }]);
      // The first that left comes back: behind its manager's waiting clients.
      await expectOk(
        fixture.clients.update(
          { ...a1, status: 'ONBOARDING_UNDER_REVIEW', updatedAt: at(window, 30) },
          'RESUBMISSION_REQUIRED',
          transitionEntry('RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', at(window, 30)),
        ),
      );
      // An update that does not move it keeps its place.
      await expectOk(
        fixture.clients.update(
          { ...a3, updatedAt: at(window, 40) },
          'ONBOARDING_UNDER_REVIEW',
          transitionEntry('ONBOARDING_UNDER_REVIEW', 'ONBOARDING_UNDER_REVIEW', at(window, 40)),
        ),
      );
      const queue = await expectOk(
        fixture.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', limit: 100 }),
      );
      expect(ids(queue)).toEqual([a3.id, fresh?.id, a4.id, a1.id]);
      expect(queue.map((row) => row.turn)).toEqual([2, 2, 3, 4]);
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
      const assignedAt = assignment.assignedAt;
      expect(await expectOk(fixture.clients.updateAssignment(a.id, assignment, assignedAt))).toBe(true);
      expect(await expectOk(fixture.clients.updateAssignment(c.id, assignment, assignedAt))).toBe(true);
      expect(await expectOk(fixture.clients.updateAssignment(randomUUID(), assignment, assignedAt))).toBe(
        false,
      );
      const stored = await fixture.inspect.readClient(a.id);
      expect(stored?.assignee).toEqual(assignment);
      // updateAssignment writes the updatedAt given, and leaves the status and the history as they were.
      expect(stored).toEqual({ ...a, assignee: assignment, updatedAt: assignedAt });
      expect(await fixture.inspect.readStatusHistory(a.id)).toHaveLength(1);

      const mine = await expectOk(
        fixture.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', assigneeId: reviewer, limit: 10 }),
      );
      expect(ids(mine)).toEqual([a.id]);
      expect(mine[0]?.client.assignee).toEqual(assignment);
      const unassigned = await expectOk(
        fixture.clients.reviewQueue({ status: 'ONBOARDING_UNDER_REVIEW', assigneeId: null, limit: 1 }),
      );
      expect(ids(unassigned)).toEqual([b.id]);
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
      expect(await expectOk(fixture.clients.updateAssignment(c.id, null, at(window, 21)))).toBe(true);
      expect(await fixture.inspect.readClient(c.id)).toMatchObject({
        assignee: null,
        updatedAt: at(window, 21),
      });

      // An insert starts unassigned whatever it is given.
      const inserted = {
        ...storedClientFixture({ managerId: randomUUID(), createdAt: at(window, 30) }),
        assignee: assignment,
      };
      await expectOk(fixture.clients.insert(inserted, creationEntryFor(inserted)));
      expect((await fixture.inspect.readClient(inserted.id))?.assignee).toBeNull();
    });

    it('locks the first unassigned client of a status, and two transactions at once take two different ones', async () => {
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
                    stores.clients.updateAssignment(
                      client.id,
                      { complianceId: reviewer, assignedAt: at(window, 9) },
                      at(window, 9),
                    ),
                  )
                  .map(() => client.id),
          ),
        );
      const taken = (await Promise.all([takeNext('first'), takeNext('second')])).map((outcome) =>
        outcome.isOk() ? outcome.value : expect.fail(`transaction failed: ${JSON.stringify(outcome.error)}`),
      );
      expect(new Set(taken)).toEqual(new Set([a.id, b.id]));
      expect((await fixture.inspect.readClient(a.id))?.assignee?.complianceId).toMatch(/first|second/);
      // The filter applies; with every match taken, there is none.
      const entity = await expectOk(
        fixture.unitOfWork.transaction((stores) =>
          stores.clients.lockNextUnassigned('ONBOARDING_UNDER_REVIEW', { clientType: 'ENTITY' }),
        ),
      );
      expect(entity).toBeNull();
      const next = await expectOk(takeNext('third'));
      expect(next).toBe(c.id);
    });
  });
};
