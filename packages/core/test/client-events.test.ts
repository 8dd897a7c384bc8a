import { describe, expect, it } from 'vitest';
import {
  type ClientEvent,
  type CompliancePrincipal,
  clientStatusTransitions,
  exampleEntityPayload,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '../src/index.js';
import { clientEventSchema } from '../src/schemas/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

const eventsOf = async (
  kit: ReturnType<typeof createMemoryKit>['kit'],
  manager: ManagerPrincipal,
  query = {},
) => (await kit.events.list(manager, { limit: 100, ...query }))._unsafeUnwrap();

/** Every committed state change has its one event, written with it; a refused one none. */
describe('client events (the transactional outbox)', () => {
  it('every transition of the status machine emits its one event, with the client as it became', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const asked = (
      await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Blurred scan' })
    )._unsafeUnwrap();
    upload(manager, 'passport-2.pdf');
    const resubmitted = (
      await kit.clients.resubmitIndividual(
        manager,
        client.id,
        exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] }),
      )
    )._unsafeUnwrap();
    const approved = (await kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
    const signed = (await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrap();
    const deleted = (await kit.clients.delete(manager, client.id))._unsafeUnwrap();

    const { data } = await eventsOf(kit, manager);
    for (const event of data) expect(clientEventSchema.safeParse(event).success).toBe(true);
    expect(data.map((event) => event.type)).toEqual([
      'client.created',
      'documents.promoted',
      'client.resubmission_requested',
      'client.resubmitted',
      'documents.promoted',
      'client.approved',
      'client.terms_signed',
      'client.deleted',
    ]);
    const clientOf = (event: ClientEvent | undefined) =>
      event && 'client' in event.data ? event.data.client : null;
    expect(clientOf(data[0])).toEqual(client);
    expect(clientOf(data[2])).toEqual(asked);
    expect(clientOf(data[3])).toEqual(resubmitted);
    expect(clientOf(data[5])).toEqual(approved);
    expect(clientOf(data[6])).toEqual(signed);
    expect(clientOf(data[7])).toEqual(deleted);
    expect(data[1]?.data).toEqual({ clientId: client.id, documents: client.individualProfile?.idDocuments });
    expect(data[4]?.data).toEqual({
      clientId: client.id,
      documents: resubmitted.individualProfile?.idDocuments,
    });
    expect(new Set(data.map((event) => event.id)).size).toBe(data.length);
    for (const event of data) expect(event.apiVersion).toBe('1.0.0');
    // Every trigger of the machine has an event type (the machine is data; so is this).
    expect(new Set(clientStatusTransitions.map((move) => move.trigger)).size).toBe(6);
  });

  it('a refused or failed command emits nothing', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    // Invalid input, a missing file, an illegal move, an unknown client, another manager's client.
    expect((await kit.clients.createEntity(manager, { company: {} })).isErr()).toBe(true);
    expect((await kit.clients.createIndividual(manager, exampleIndividualPayload())).isErr()).toBe(true);
    upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    expect((await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrapErr().type).toBe(
      'InvalidStatus',
    );
    expect((await kit.clients.resubmitEntity(manager, client.id, exampleEntityPayload())).isErr()).toBe(true);
    expect((await kit.clients.delete(aManager(), client.id))._unsafeUnwrapErr().type).toBe('ClientNotFound');
    const { data } = await eventsOf(kit, manager);
    expect(data.map((event) => event.type)).toEqual(['client.created', 'documents.promoted']);
  });

  it('each manager reads its own events only, page by page, filtered by type or client', async () => {
    const { kit, upload } = createMemoryKit();
    const [a, b] = [aManager(), aManager()];
    const ofA: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      upload(a, 'passport.pdf');
      ofA.push((await kit.clients.createIndividual(a, exampleIndividualPayload()))._unsafeUnwrap().id);
      upload(b, 'passport.pdf');
      await kit.clients.createIndividual(b, exampleIndividualPayload());
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const next = await eventsOf(kit, a, { limit: 3, type: 'client.created', ...(after ? { after } : {}) });
      seen.push(...next.data.map((event) => ('client' in event.data ? event.data.client.id : '')));
      if (next.data.length === 0) {
        expect(next.nextCursor).toBe(after ?? null);
        break;
      }
      after = next.nextCursor ?? undefined;
    }
    expect(seen).toEqual(ofA);
    const one = await eventsOf(kit, a, { clientId: ofA[2] });
    expect(one.data.map((event) => event.type)).toEqual(['client.created', 'documents.promoted']);
    expect((await eventsOf(kit, b)).data).toHaveLength(10);
  });

  it('refuses a crafted cursor or an unknown type at its parameter', async () => {
    const { kit } = createMemoryKit();
    for (const query of [
      { after: 'not-a-cursor' },
      { after: btoa('e-1') },
      { type: 'client.paid' },
      { limit: 0 },
    ]) {
      expect((await kit.events.list(aManager(), query))._unsafeUnwrapErr().type).toBe('ValidationFailed');
    }
  });
});
