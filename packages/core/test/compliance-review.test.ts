import { describe, expect, it } from 'vitest';
import { transitionClientStatus } from '../src/domain/status-machine.js';
import {
  type ClientStatus,
  type CompliancePrincipal,
  clientStatuses,
  clientStatusTransitions,
  exampleEntityPayload,
  exampleIndividualPayload,
} from '../src/index.js';
import { aCreatedIndividual } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

describe('status machine data (decisions §3)', () => {
  const triggers = ['APPROVE', 'REQUEST_RESUBMISSION', 'RESUBMIT', 'SIGN_TERMS', 'DELETE'] as const;
  const legal: Record<string, ClientStatus> = {
    'ONBOARDING_UNDER_REVIEW APPROVE': 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    'ONBOARDING_UNDER_REVIEW REQUEST_RESUBMISSION': 'RESUBMISSION_REQUIRED',
    'RESUBMISSION_REQUIRED RESUBMIT': 'ONBOARDING_UNDER_REVIEW',
    'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE SIGN_TERMS': 'VERIFIED',
    'ONBOARDING_IN_PROGRESS DELETE': 'DELETED',
    'ONBOARDING_UNDER_REVIEW DELETE': 'DELETED',
    'RESUBMISSION_REQUIRED DELETE': 'DELETED',
    'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE DELETE': 'DELETED',
    'VERIFIED DELETE': 'DELETED',
  };
  for (const from of clientStatuses) {
    for (const trigger of triggers) {
      const expected = legal[`${from} ${trigger}`];
      it(`${from} --${trigger}--> ${expected ?? 'refused'}`, () => {
        const result = transitionClientStatus('id', from, trigger);
        if (expected) expect(result._unsafeUnwrap()).toBe(expected);
        else
          expect(result._unsafeUnwrapErr()).toEqual({
            type: 'InvalidStatus',
            clientId: 'id',
            currentStatus: from,
            trigger,
          });
      });
    }
  }
  it('creates under review and lists exactly the legal moves', () => {
    expect(clientStatusTransitions.filter((t) => t.from === null)).toEqual([
      { from: null, trigger: 'CREATE', to: 'ONBOARDING_UNDER_REVIEW', actor: 'manager' },
    ]);
    expect(clientStatusTransitions).toHaveLength(Object.keys(legal).length + 1);
  });
});

describe('the review flow through the services', () => {
  it('runs resubmission → resubmit → approve → terms signed, with the history', async () => {
    const { kit, manager, client, upload } = await aCreatedIndividual();
    const asked = (
      await kit.compliance.requestResubmission(compliance, client.id, {
        reason: 'Proof of address is unreadable',
      })
    )._unsafeUnwrap();
    expect(asked).toMatchObject({
      status: 'RESUBMISSION_REQUIRED',
      onboardingResubmissionReason: 'Proof of address is unreadable',
    });

    await upload(manager, 'passport-2.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] });
    const resubmitted = (await kit.clients.resubmitIndividual(manager, client.id, payload))._unsafeUnwrap();
    expect(resubmitted).toMatchObject({
      id: client.id,
      status: 'ONBOARDING_UNDER_REVIEW',
      onboardingResubmissionReason: null,
    });
    expect(resubmitted.individualProfile?.idDocuments[0]).toMatch(/_passport-2\.pdf$/);
    expect(resubmitted.createdAt).toBe(client.createdAt);

    expect((await kit.compliance.approve(compliance, client.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );
    expect((await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrap().status).toBe(
      'VERIFIED',
    );

    const history = (await kit.clients.statusHistory(manager, client.id))._unsafeUnwrap();
    expect(history.map((entry) => [entry.from, entry.to, entry.actor])).toEqual([
      [null, 'ONBOARDING_UNDER_REVIEW', `manager:${manager.managerId}`],
      ['ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED', 'compliance:officer-1'],
      ['RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', `manager:${manager.managerId}`],
      ['ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'compliance:officer-1'],
      ['WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED', 'compliance:officer-1'],
    ]);
    expect(history[1]?.reason).toBe('Proof of address is unreadable');
  });

  it('refuses illegal moves with InvalidStatus naming the current status, and changes nothing', async () => {
    const { kit, manager, client } = await aCreatedIndividual();
    expect((await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrapErr()).toEqual({
      type: 'InvalidStatus',
      clientId: client.id,
      currentStatus: 'ONBOARDING_UNDER_REVIEW',
      trigger: 'SIGN_TERMS',
    });
    const resubmit = await kit.clients.resubmitIndividual(manager, client.id, exampleIndividualPayload());
    expect(resubmit._unsafeUnwrapErr()).toMatchObject({
      type: 'InvalidStatus',
      currentStatus: 'ONBOARDING_UNDER_REVIEW',
    });
    expect((await kit.clients.statusHistory(manager, client.id))._unsafeUnwrap()).toHaveLength(1);
  });

  it('refuses an entity resubmission on an individual (409) before touching any file', async () => {
    const { kit, manager, client, upload } = await aCreatedIndividual();
    await kit.compliance.requestResubmission(compliance, client.id, { reason: 'More please' });
    await upload(manager, 'kbis.pdf');
    const error = (
      await kit.clients.resubmitEntity(
        manager,
        client.id,
        exampleEntityPayload({ proofOfIncorporationDocuments: ['kbis.pdf'] }),
      )
    )._unsafeUnwrapErr();
    expect(error).toEqual({
      type: 'ClientTypeMismatch',
      clientId: client.id,
      clientType: 'INDIVIDUAL',
      expected: 'ENTITY',
    });
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files.map((f) => f.filename)).toEqual([
      'kbis.pdf',
    ]);
  });

  it('refuses a resubmission request without a reason, and unknown clients', async () => {
    const { kit, client } = await aCreatedIndividual();
    expect(
      (await kit.compliance.requestResubmission(compliance, client.id, { reason: ' ' }))._unsafeUnwrapErr(),
    ).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { reason: [expect.any(String)] },
    });
    expect((await kit.compliance.approve(compliance, crypto.randomUUID()))._unsafeUnwrapErr().type).toBe(
      'ClientNotFound',
    );
    expect((await kit.compliance.approve(compliance, 'nope'))._unsafeUnwrapErr().type).toBe('ClientNotFound');
  });

  it('lets exactly one of two racing resubmissions win', async () => {
    const { kit, manager, client, upload } = await aCreatedIndividual();
    await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Again' });
    await upload(manager, 'a.pdf');
    await upload(manager, 'b.pdf');
    const results = await Promise.all([
      kit.clients.resubmitIndividual(
        manager,
        client.id,
        exampleIndividualPayload({ idDocuments: ['a.pdf'] }),
      ),
      kit.clients.resubmitIndividual(
        manager,
        client.id,
        exampleIndividualPayload({ idDocuments: ['b.pdf'] }),
      ),
    ]);
    expect(results.filter((r) => r.isOk())).toHaveLength(1);
    expect(results.find((r) => r.isErr())?._unsafeUnwrapErr().type).toBe('InvalidStatus');
    const history = (await kit.clients.statusHistory(manager, client.id))._unsafeUnwrap();
    expect(history.filter((entry) => entry.from === 'RESUBMISSION_REQUIRED')).toHaveLength(1);
    // The loser's file was not promoted: it is still in temporary storage, usable later.
    expect((await kit.documents.listUploads(manager))._unsafeUnwrap().files).toHaveLength(1);
  });
});
