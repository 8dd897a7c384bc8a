import { describe, expect, it } from 'vitest';
import { requirementsOf } from '../src/domain/client.js';
import { screeningAllowsApproval } from '../src/domain/screening.js';
import {
  type Client,
  type CompliancePrincipal,
  exampleIndividualPayload,
  type ManagerPrincipal,
  type Screening,
} from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const alice: CompliancePrincipal = { kind: 'compliance', complianceId: 'alice' };
const bob: CompliancePrincipal = { kind: 'compliance', complianceId: 'bob' };

/** A kit with `count` individuals of one manager, created a minute apart (oldest first). */
const kitWithClients = async (count: number) => {
  const setup = createMemoryKit();
  const manager = aManager();
  const clients: Client[] = [];
  for (let index = 0; index < count; index += 1) {
    setup.upload(manager, 'passport.pdf');
    clients.push(
      (await setup.kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap(),
    );
    setup.clock.advance(60_000);
  }
  return { ...setup, manager, clients };
};

const ids = (clients: readonly Client[]) => clients.map((client) => client.id);

describe('requirements: what stands in the way of the next step', () => {
  const hit = (decision: 'CONFIRMED' | 'DISMISSED' | null) => ({
    id: crypto.randomUUID(),
    field: 'profile',
    name: 'Jane Doe',
    listName: 'List',
    matchedName: 'JANE DOE',
    score: 0.9,
    targetId: 'list-entry-1',
    explanation: null,
    entry: null,
    resolution:
      decision === null ? null : { decision, reason: 'r', actor: 'a', at: '2026-01-01T00:00:00.000Z' },
  });
  const screenings: (Screening | null)[] = [
    null,
    { status: 'PENDING', screenedAt: null, hits: [] },
    { status: 'ERROR', screenedAt: null, hits: [] },
    { status: 'CLEAR', screenedAt: '2026-01-01T00:00:00.000Z', hits: [] },
    { status: 'POSSIBLE_MATCH', screenedAt: '2026-01-01T00:00:00.000Z', hits: [hit(null), hit('DISMISSED')] },
    { status: 'POSSIBLE_MATCH', screenedAt: '2026-01-01T00:00:00.000Z', hits: [hit('CONFIRMED')] },
    { status: 'POSSIBLE_MATCH', screenedAt: '2026-01-01T00:00:00.000Z', hits: [hit('DISMISSED')] },
  ];

  it.each(screenings.map((screening) => [screening?.status ?? 'none', screening] as const))(
    'under review with screening %s: no requirement exactly when the screening allows the approval (and the terms)',
    async (_, screening) => {
      const { clients } = await kitWithClients(1);
      const client = { ...(clients[0] as Client), screening };
      const requirements = requirementsOf(client);
      expect(requirements.length === 0).toBe(screeningAllowsApproval(screening));
      const waiting = requirementsOf({ ...client, status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' });
      expect(waiting.slice(1)).toEqual(requirements);
      // One entry per open or confirmed hit, naming it.
      for (const each of screening?.hits ?? []) {
        const named = requirements.find((requirement) => requirement.hitId === each.id);
        if (each.resolution?.decision === 'DISMISSED') expect(named).toBeUndefined();
        else
          expect(named?.code).toBe(
            each.resolution === null ? 'SCREENING_HIT_UNRESOLVED' : 'SCREENING_HIT_CONFIRMED',
          );
      }
    },
  );

  it('names the terms, the resubmission asked field by field, and a deletion; nothing once verified', async () => {
    const { kit, manager, clients } = await kitWithClients(2);
    const [first, second] = clients as [Client, Client];
    expect(first.requirements).toEqual([]);
    const asked = (
      await kit.compliance.requestResubmission(alice, first.id, {
        reason: 'Unreadable',
        requirements: [{ field: 'profile.idDocuments[0]', code: 'DOCUMENT_UNREADABLE', message: 'Blurred' }],
      })
    )._unsafeUnwrap();
    expect(asked.requirements).toEqual([
      {
        code: 'RESUBMISSION_OUTSTANDING',
        field: 'profile.idDocuments[0]',
        hitId: null,
        message: 'The manager has not resubmitted the onboarding',
      },
    ]);
    const approved = (await kit.compliance.approve(alice, second.id))._unsafeUnwrap();
    expect(approved.requirements.map((requirement) => requirement.code)).toEqual(['TERMS_NOT_SIGNED']);
    const verified = (await kit.compliance.markTermsSigned(alice, second.id))._unsafeUnwrap();
    expect(verified.requirements).toEqual([]);
    const deleted = (await kit.clients.delete(manager as ManagerPrincipal, first.id))._unsafeUnwrap();
    expect(deleted.requirements.map((requirement) => requirement.code)).toEqual(['CLIENT_DELETED']);
    // Every read answers them, the manager's too.
    expect((await kit.clients.get(manager, second.id))._unsafeUnwrap().requirements).toEqual([]);
  });
});

describe('the review queue', () => {
  it('lists under review, then waiting for terms, oldest first, with counts, across pages', async () => {
    const { kit, clients } = await kitWithClients(5);
    const [a, b, c, d, e] = clients as [Client, Client, Client, Client, Client];
    (await kit.compliance.approve(alice, b.id))._unsafeUnwrap();
    (await kit.compliance.approve(alice, d.id))._unsafeUnwrap();
    (await kit.compliance.requestResubmission(alice, e.id, { reason: 'Missing' }))._unsafeUnwrap();
    const first = (await kit.review.queue(alice, { limit: '2' }))._unsafeUnwrap();
    expect(ids(first.data)).toEqual([a.id, c.id]);
    expect(first.counts).toEqual({
      ONBOARDING_UNDER_REVIEW: 2,
      WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 2,
    });
    const second = (await kit.review.queue(alice, { limit: '2', cursor: first.nextCursor }))._unsafeUnwrap();
    expect(ids(second.data)).toEqual([b.id, d.id]);
    expect(second.nextCursor).toBeNull();
    // A page that ends inside the first status continues into the next one.
    const three = (await kit.review.queue(alice, { limit: '3' }))._unsafeUnwrap();
    expect(ids(three.data)).toEqual([a.id, c.id, b.id]);
    const rest = (await kit.review.queue(alice, { limit: '3', cursor: three.nextCursor }))._unsafeUnwrap();
    expect(ids(rest.data)).toEqual([d.id]);
    const terms = (
      await kit.review.queue(alice, { status: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE' })
    )._unsafeUnwrap();
    expect(ids(terms.data)).toEqual([b.id, d.id]);
    expect((await kit.review.queue(alice, { screening: 'PENDING' }))._unsafeUnwrap().data).toEqual([]);
    expect(ids((await kit.review.queue(alice, { screening: 'NONE' }))._unsafeUnwrap().data)).toHaveLength(4);
  });

  it("takes managers in turn: another manager's client waits behind one turn, not behind a burst", async () => {
    const { kit, upload, clock, clients: burst } = await kitWithClients(5);
    const other = aManager();
    upload(other, 'passport.pdf');
    const theirs = (await kit.clients.createIndividual(other, exampleIndividualPayload()))._unsafeUnwrap();
    clock.advance(60_000);
    const first = (await kit.review.queue(alice, { limit: '2' }))._unsafeUnwrap();
    expect(ids(first.data)).toEqual([burst[0]?.id, theirs.id]);
    // The next unassigned client is theirs once the burst's first is taken.
    (await kit.review.assign(bob, burst[0]?.id ?? ''))._unsafeUnwrap();
    expect((await kit.review.assignNext(alice))._unsafeUnwrap().client?.id).toBe(theirs.id);
    // Pages go on from their place: the burst's first decided meanwhile moves nobody.
    (await kit.compliance.approve(bob, burst[0]?.id ?? ''))._unsafeUnwrap();
    const second = (await kit.review.queue(alice, { limit: '2', cursor: first.nextCursor }))._unsafeUnwrap();
    expect(ids(second.data)).toEqual([burst[1]?.id, burst[2]?.id]);
    const third = (await kit.review.queue(alice, { limit: '2', cursor: second.nextCursor }))._unsafeUnwrap();
    expect(ids(third.data)).toEqual([burst[3]?.id, burst[4]?.id]);
    const last = (await kit.review.queue(alice, { limit: '2', cursor: third.nextCursor }))._unsafeUnwrap();
    expect(ids(last.data)).toEqual([burst[0]?.id]);
    expect(last.nextCursor).toBeNull();
  });

  it("names each waiting client's manager (an optional field of the entry: the Client shape is unchanged)", async () => {
    const { kit, upload, manager, clients } = await kitWithClients(1);
    const other = aManager();
    upload(other, 'passport.pdf');
    const theirs = (await kit.clients.createIndividual(other, exampleIndividualPayload()))._unsafeUnwrap();
    const queue = (await kit.review.queue(alice, {}))._unsafeUnwrap();
    expect(queue.data.map(({ id, managerId }) => ({ id, managerId }))).toEqual([
      { id: clients[0]?.id, managerId: manager.managerId },
      { id: theirs.id, managerId: other.managerId },
    ]);
    const { managerId: _managerId, ...client } = queue.data[1] as (typeof queue.data)[number];
    expect(client).toEqual((await kit.review.get(alice, theirs.id))._unsafeUnwrap());
  });

  it('refuses an unknown filter or a crafted cursor as a 400 at its parameter', async () => {
    const { kit } = await kitWithClients(0);
    const refused = (await kit.review.queue(alice, { status: 'VERIFIED' }))._unsafeUnwrapErr();
    expect(refused).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { status: expect.any(Array) },
    });
    const crafted = (await kit.review.queue(alice, { cursor: 'bm90LWEtY3Vyc29y' }))._unsafeUnwrapErr();
    expect(crafted).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { cursor: expect.any(Array) },
    });
    expect((await kit.review.queue(alice, { assignee: 'someone' }))._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
    });
  });

  it('assigns to me, takes over, releases: on the client and in the audit trail', async () => {
    const { kit, clock, clients } = await kitWithClients(2);
    const [a, b] = clients as [Client, Client];
    const mine = (await kit.review.assign(alice, a.id))._unsafeUnwrap();
    expect(mine.assignee).toEqual({ complianceId: 'alice', assignedAt: clock.now().toISOString() });
    // Again: nothing changes, nothing more is audited.
    expect((await kit.review.assign(alice, a.id))._unsafeUnwrap()).toEqual(mine);
    expect(ids((await kit.review.queue(alice, { assignee: 'me' }))._unsafeUnwrap().data)).toEqual([a.id]);
    expect(ids((await kit.review.queue(alice, { assignee: 'unassigned' }))._unsafeUnwrap().data)).toEqual([
      b.id,
    ]);
    const taken = (await kit.review.assign(bob, a.id))._unsafeUnwrap();
    expect(taken.assignee?.complianceId).toBe('bob');
    const released = (await kit.review.release(alice, a.id))._unsafeUnwrap();
    expect(released.assignee).toBeNull();
    expect((await kit.review.release(alice, a.id))._unsafeUnwrap().assignee).toBeNull();
    const trail = (await kit.audit.list(alice, a.id, {}))._unsafeUnwrap().data;
    expect(trail.map((entry) => [entry.action, entry.actor.id])).toEqual([
      ['create', expect.any(String)],
      ['assign', 'alice'],
      ['assign', 'bob'],
      ['release', 'alice'],
    ]);
    expect(trail[2]?.changes).toEqual([{ path: 'assignee', before: mine.assignee, after: taken.assignee }]);
    // An assignment survives a review move, and a resubmission comes back to the same reviewer.
    (await kit.review.assign(alice, a.id))._unsafeUnwrap();
    const asked = (
      await kit.compliance.requestResubmission(alice, a.id, { reason: 'Again' })
    )._unsafeUnwrap();
    expect(asked.assignee?.complianceId).toBe('alice');
    expect((await kit.review.assign(alice, a.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'InvalidStatus',
      currentStatus: 'RESUBMISSION_REQUIRED',
    });
  });

  it('assigns the next unassigned client, oldest first, then answers null', async () => {
    const { kit, clients } = await kitWithClients(3);
    const [a, b, c] = clients as [Client, Client, Client];
    (await kit.review.assign(bob, a.id))._unsafeUnwrap();
    (await kit.compliance.approve(alice, b.id))._unsafeUnwrap();
    // Under review first: c, although b is older.
    const next = (await kit.review.assignNext(alice))._unsafeUnwrap();
    expect(next.client?.id).toBe(c.id);
    expect(next.client?.assignee?.complianceId).toBe('alice');
    const filtered = (
      await kit.review.assignNext(alice, { status: 'ONBOARDING_UNDER_REVIEW' })
    )._unsafeUnwrap();
    expect(filtered.client).toBeNull();
    const both = await Promise.all([kit.review.assignNext(alice), kit.review.assignNext(bob)]);
    expect(both.map((outcome) => outcome._unsafeUnwrap().client?.id ?? null).sort()).toEqual(
      [b.id, null].sort(),
    );
    expect((await kit.review.assignNext(alice, { priority: 1 }))._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
    });
  });

  it("reads any manager's client, its history, and issues audited links to its own documents only", async () => {
    const { kit, clients, upload } = await kitWithClients(1);
    const [a] = clients as [Client];
    const other = aManager();
    upload(other, 'passport.pdf');
    const foreign = (await kit.clients.createIndividual(other, exampleIndividualPayload()))._unsafeUnwrap();
    expect((await kit.review.get(alice, a.id))._unsafeUnwrap().id).toBe(a.id);
    expect((await kit.review.get(alice, 'not-a-uuid'))._unsafeUnwrapErr().type).toBe('ClientNotFound');
    expect((await kit.review.statusHistory(alice, a.id))._unsafeUnwrap()).toHaveLength(1);
    const key = a.individualProfile?.idDocuments[0] ?? '';
    const links = (
      await kit.documents.requestClientDownloadBatch(alice, a.id, { filenames: [key] })
    )._unsafeUnwrap();
    expect(links.downloads.map((download) => download.filename)).toEqual([key]);
    const trail = (await kit.audit.list(alice, a.id, {}))._unsafeUnwrap().data;
    expect(trail.at(-1)).toMatchObject({
      action: 'download-links-issued',
      actor: { id: 'alice' },
      documents: [key],
    });
    // Another client's document, even of the same kit, is not this client's.
    const foreignKey = foreign.individualProfile?.idDocuments[0] ?? '';
    expect(
      (
        await kit.documents.requestClientDownloadBatch(alice, a.id, { filenames: [foreignKey] })
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'DocumentNotFound' });
    expect(
      (
        await kit.documents.requestClientDownloadBatch(alice, crypto.randomUUID(), { filenames: [key] })
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'ClientNotFound' });
    const deleted = (await kit.review.delete(alice, foreign.id))._unsafeUnwrap();
    expect(deleted.status).toBe('DELETED');
    expect((await kit.review.delete(alice, foreign.id))._unsafeUnwrapErr().type).toBe('InvalidStatus');
  });
});
