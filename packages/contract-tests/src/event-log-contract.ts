import { randomUUID } from 'node:crypto';
import { CLIENT_EVENT_API_VERSION, type ClientEvent } from '@onboarding-kit/core';
import {
  type ClientRepository,
  type EventLog,
  type LoggedEvent,
  redactClient,
  type UnitOfWork,
} from '@onboarding-kit/core/adapter';
import { errAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { creationEntryFor, storedClientFixture } from './client-fixtures.js';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type EventLogContractFixture = Teardown & {
  readonly events: EventLog;
  /** The unit of work whose transactions append with their writes. */
  readonly unitOfWork: UnitOfWork;
  /** The clients of the same store: events are rewritten only for a redacted one. */
  readonly clients: ClientRepository;
};

export type EventLogContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<EventLogContractFixture>;
};

const promoted = (managerId: string, clientId: string = randomUUID()): LoggedEvent => {
  const event: ClientEvent = {
    id: randomUUID(),
    type: 'documents.promoted',
    apiVersion: CLIENT_EVENT_API_VERSION,
    createdAt: new Date('2031-01-01T00:00:00.000Z').toISOString(),
    data: { clientId, documents: [`${randomUUID()}_passport.pdf`] },
  };
  return { managerId, clientId, event };
};

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** EventLog (core/src/ports/event-log.ts): the transactional outbox of client events. */
export const runEventLogContract = ({ name, setup }: EventLogContractOptions): void => {
  describe(`EventLog contract: ${name}`, () => {
    it("reads a manager's events oldest first, exactly as appended, and no one else's", async () => {
      const { events } = await openFixture(setup);
      const manager = randomUUID();
      const mine = [promoted(manager), promoted(manager), promoted(manager)];
      await expectOk(events.append([mine[0] as LoggedEvent]));
      await expectOk(events.append([promoted(randomUUID())]));
      await expectOk(events.append(mine.slice(1)));
      const read = await expectOk(events.listForManager({ managerId: manager, limit: 10 }));
      expect(read.map(({ event }) => event)).toEqual(mine.map(({ event }) => event));
      const positions = read.map(({ position }) => position);
      expect(positions.every((position) => /^\d+(\.\d+)?$/.test(position))).toBe(true);
      expect(new Set(positions).size).toBe(3);
      expect(await expectOk(events.listForManager({ managerId: randomUUID(), limit: 10 }))).toEqual([]);
    });

    it('pages after a position, bounded by the limit, filtered by type and client', async () => {
      const { events } = await openFixture(setup);
      const manager = randomUUID();
      const client = randomUUID();
      const appended = [
        promoted(manager),
        promoted(manager, client),
        promoted(manager),
        promoted(manager, client),
      ];
      await expectOk(events.append(appended));
      const first = await expectOk(events.listForManager({ managerId: manager, limit: 2 }));
      expect(first).toHaveLength(2);
      const rest = await expectOk(
        events.listForManager({ managerId: manager, limit: 10, afterPosition: first[1]?.position ?? '0' }),
      );
      expect([...first, ...rest].map(({ event }) => event.id)).toEqual(appended.map(({ event }) => event.id));
      const ofClient = await expectOk(
        events.listForManager({ managerId: manager, limit: 10, clientId: client }),
      );
      expect(ofClient.map(({ event }) => event.id)).toEqual(
        [appended[1], appended[3]].map((e) => e?.event.id),
      );
      expect(
        await expectOk(events.listForManager({ managerId: manager, limit: 10, type: 'client.created' })),
      ).toEqual([]);
    });

    it("rewrites the client's events in place (same positions), and only that client's", async () => {
      const { events, clients } = await openFixture(setup);
      const manager = randomUUID();
      // Redaction rewrites the events of a client it has just marked redacted (an adapter may refuse others).
      const deleted = storedClientFixture({ managerId: manager, status: 'DELETED' });
      await expectOk(clients.insert(deleted, creationEntryFor(deleted)));
      const at = new Date().toISOString();
      await expectOk(clients.redact(redactClient({ ...deleted, deletedAt: at, updatedAt: at }, at)));
      const client = deleted.id;
      const appended = [promoted(manager, client), promoted(manager), promoted(manager, client)];
      await expectOk(events.append(appended));
      const before = await expectOk(events.listForManager({ managerId: manager, limit: 10 }));
      const rewrite = (event: ClientEvent): ClientEvent =>
        event.type === 'documents.promoted' ? { ...event, data: { ...event.data, documents: [] } } : event;
      await expectOk(events.rewriteForClient(client, rewrite));
      await expectOk(events.rewriteForClient(randomUUID(), rewrite));
      const after = await expectOk(events.listForManager({ managerId: manager, limit: 10 }));
      expect(after).toEqual(
        before.map(({ position, event }, index) => ({
          position,
          event: index === 1 ? event : rewrite(event),
        })),
      );
      expect((await expectOk(events.findByIds([appended[0]?.event.id ?? '']))).map((e) => e.event)).toEqual([
        rewrite(appended[0]?.event as ClientEvent),
      ]);
    });

    it('finds events by id, whoever they belong to, leaving out unknown ids', async () => {
      const { events } = await openFixture(setup);
      const [a, b, c] = [promoted(randomUUID()), promoted(randomUUID()), promoted(randomUUID())];
      await expectOk(events.append([a, b, c]));
      const found = await expectOk(events.findByIds([c.event.id, randomUUID(), a.event.id]));
      const byId = (x: LoggedEvent, y: LoggedEvent) => x.event.id.localeCompare(y.event.id);
      expect(found.sort(byId)).toEqual([a, c].sort(byId));
      expect(await expectOk(events.findByIds([]))).toEqual([]);
      expect(await expectOk(events.findByIds([randomUUID()]))).toEqual([]);
    });

    it('keeps the events of a committed transaction and none of a rolled-back one', async () => {
      const { events, unitOfWork } = await openFixture(setup);
      const manager = randomUUID();
      const kept = promoted(manager);
      await expectOk(unitOfWork.transaction((stores) => stores.events.append([kept])));
      const dropped = promoted(manager);
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.events.append([dropped]).andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      const read = await expectOk(events.listForManager({ managerId: manager, limit: 10 }));
      expect(read.map(({ event }) => event.id)).toEqual([kept.event.id]);
      expect(await expectOk(events.findByIds([dropped.event.id, kept.event.id]))).toEqual([kept]);
    });

    it('a reader paging by position never skips an event that commits after a later one was appended', async () => {
      const { events, unitOfWork } = await openFixture(setup);
      const manager = randomUUID();
      const [first, second] = [promoted(manager), promoted(manager)];
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let appended: () => void = () => undefined;
      const firstAppended = new Promise<void>((resolve) => {
        appended = resolve;
      });
      // The first transaction appends, then holds on before it commits.
      const slow = unitOfWork.transaction((stores) =>
        stores.events.append([first]).andThen(() => {
          appended();
          return ResultAsync.fromSafePromise(gate);
        }),
      );
      await firstAppended;
      // The second appends meanwhile and commits as soon as it may.
      const fast = unitOfWork.transaction((stores) => stores.events.append([second]));
      await pause(150);
      const seen: string[] = [];
      let after: string | undefined;
      const readPage = async () => {
        for (const { position, event } of await expectOk(
          events.listForManager({
            managerId: manager,
            limit: 10,
            ...(after === undefined ? {} : { afterPosition: after }),
          }),
        )) {
          seen.push(event.id);
          after = position;
        }
      };
      await readPage();
      release();
      await expectOk(slow);
      await expectOk(fast);
      await readPage();
      // Each exactly once. Their order is the log's: an adapter may append a transaction's events
      // only when it commits (PostgreSQL sends a command's writes as one statement then).
      expect([...seen].sort()).toEqual([first.event.id, second.event.id].sort());
    });
  });
};
