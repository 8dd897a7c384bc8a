import {
  createControllableClock,
  createOnboardingKit,
  demoIdentities,
  exampleEntityPayload,
  exampleIndividualPayload,
  type OnboardingKitOptions,
  principalKey,
} from '@onboarding-kit/core';
import {
  type ScreeningMatch,
  type ScreeningProvider,
  type ScreeningSubject,
  screeningUnavailable,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters, createMemoryKit, screeningRetryDelayMs } from '../src/index.js';

const manager = demoIdentities.managerA.principal;
const compliance = demoIdentities.compliance.principal;

/** Matches the names it lists exactly (the list provider's fuzzy scoring is tested in its package). */
const listProvider = (listed: readonly string[]) => {
  const calls: ScreeningSubject[][] = [];
  let failuresLeft = 0;
  let whileScreening: (() => Promise<void>) | undefined;
  const provider: ScreeningProvider = {
    screen: (subjects) => {
      calls.push([...subjects]);
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return errAsync(screeningUnavailable(new Error('the list is not loaded')));
      }
      const meanwhile = whileScreening;
      whileScreening = undefined;
      return (meanwhile === undefined ? okAsync(undefined) : ResultAsync.fromSafePromise(meanwhile())).map(
        () =>
          subjects
            .filter((subject) => listed.includes(subject.name))
            .map(
              (subject): ScreeningMatch => ({
                field: subject.field,
                name: subject.name,
                listName: 'Test sanctions',
                matchedName: subject.name.toUpperCase(),
                score: 1,
                targetId: `test-${subject.name}`,
              }),
            ),
      );
    },
  };
  return {
    provider,
    calls,
    failNext: (times: number) => (failuresLeft = times),
    /** Runs `change` while the next screening is in flight (a resubmission meanwhile). */
    meanwhile: (change: () => Promise<void>) => (whileScreening = change),
  };
};

const setup = (listed: readonly string[], kitOptions: OnboardingKitOptions = {}) => {
  const clock = createControllableClock(new Date('2031-01-01T09:00:00.000Z'));
  const screening = listProvider(listed);
  const kit = createMemoryKit({ clock, screening: screening.provider, kitOptions });
  return { clock, kit, screening };
};

describe('screening in memory', () => {
  it('screens a create on the job queue: PENDING, then POSSIBLE_MATCH with the hit on its field', async () => {
    const { kit, screening } = setup(['Martin Holding SARL']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    // Not in the request: the provider has not been called yet.
    expect(created.screening).toEqual({ status: 'PENDING', screenedAt: null, hits: [] });
    expect(screening.calls).toEqual([]);
    expect(kit.testing.listScreeningJobs()).toEqual([
      expect.objectContaining({ clientId: created.id, attempts: 0 }),
    ]);

    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 0 });
    expect(screening.calls[0]?.map(({ field, kind }) => [field, kind])).toEqual([
      ['company', 'COMPANY'],
      ['representatives[0]', 'PERSON'],
      ['companyDirectorsAndUbos.directors[0]', 'PERSON'],
      ['companyDirectorsAndUbos.ubos[0]', 'PERSON'],
      ['companyDirectorsAndUbos.ubos[1]', 'COMPANY'],
    ]);
    const screened = (await kit.clients.get(manager, created.id))._unsafeUnwrap();
    expect(screened.screening).toEqual({
      status: 'POSSIBLE_MATCH',
      screenedAt: '2031-01-01T09:00:00.000Z',
      hits: [
        {
          id: expect.any(String),
          field: 'companyDirectorsAndUbos.ubos[1]',
          name: 'Martin Holding SARL',
          listName: 'Test sanctions',
          matchedName: 'MARTIN HOLDING SARL',
          score: 1,
          targetId: 'test-Martin Holding SARL',
          explanation: null,
          entry: null,
          resolution: null,
        },
      ],
    });
    const events = (await kit.events.list(manager, { type: 'client.screening_completed' }))._unsafeUnwrap();
    expect(events.data.map((event) => event.type)).toEqual(['client.screening_completed']);
    expect(kit.testing.listScreeningJobs()).toEqual([]);
  });

  it("moves the client's updatedAt with each change of its answer (screening result, hit decision, assignment, release), and the events carry it", async () => {
    const { clock, kit, screening } = setup(['Martin Holding SARL']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    const read = async () => (await kit.clients.get(manager, created.id))._unsafeUnwrap();
    const now = () => clock.now().toISOString();
    const step = async (act: () => unknown) => {
      clock.advance(60_000);
      await act();
      return read();
    };
    // A failed screening answers ERROR: a change; the same failure again changes nothing shown.
    screening.failNext(2);
    const failed = await step(() => kit.testing.screenDueClients());
    expect([failed.screening?.status, failed.updatedAt]).toEqual(['ERROR', now()]);
    clock.advance(screeningRetryDelayMs(1));
    const failedAgain = await step(() => kit.testing.screenDueClients());
    expect(failedAgain).toEqual(failed);
    clock.advance(screeningRetryDelayMs(2));
    const screened = await step(() => kit.testing.screenDueClients());
    expect([screened.screening?.status, screened.updatedAt]).toEqual(['POSSIBLE_MATCH', now()]);
    const [completed] = (
      await kit.events.list(manager, { type: 'client.screening_completed' })
    )._unsafeUnwrap().data;
    if (completed?.type !== 'client.screening_completed') expect.fail('a completion event');
    expect(completed.data.client.updatedAt).toBe(screened.updatedAt);

    const hitId = screened.screening?.hits[0]?.id ?? expect.fail('a hit');
    const decided = await step(() =>
      kit.screening.resolveHit(compliance, created.id, hitId, {
        decision: 'DISMISSED',
        reason: 'Other person',
      }),
    );
    expect(decided.updatedAt).toBe(now());
    const [resolved] = (
      await kit.events.list(manager, { type: 'client.screening_hit_resolved' })
    )._unsafeUnwrap().data;
    if (resolved?.type !== 'client.screening_hit_resolved') expect.fail('a resolution event');
    expect(resolved.data.client).toEqual(decided);

    const assigned = await step(() => kit.review.assign(compliance, created.id));
    expect([assigned.assignee?.assignedAt, assigned.updatedAt]).toEqual([now(), now()]);
    // Assigned again to the same reviewer: nothing changes.
    expect(await step(() => kit.review.assign(compliance, created.id))).toEqual(assigned);
    const released = await step(() => kit.review.release(compliance, created.id));
    expect([released.assignee, released.updatedAt]).toEqual([null, now()]);
    // createdAt never moves; the list (newest createdAt first) is unchanged by it all.
    expect(released.createdAt).toBe(created.createdAt);
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data[0]?.id).toBe(created.id);
  });

  it("screens every name a client brings: an individual's employer and a third-party account's owner", async () => {
    const owner = 'Viktor Petrov';
    const employer = 'Northwind Maritime Trading SA';
    const { kit, screening } = setup([owner, employer]);
    kit.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array([1]));
    const payload = exampleIndividualPayload();
    payload.profile.companyName = employer;
    const [personal] = payload.bankAccounts;
    if (personal === undefined) expect.fail('the example has a bank account');
    payload.bankAccounts.push({
      ...personal,
      label: "Owner's account",
      type: 'THIRD_PARTY',
      thirdPartyBankAccountOwnerName: owner,
      thirdPartyBankAccountOwnerAddress: '1 Nevsky Prospekt',
      thirdPartyBankAccountOwnerCity: 'Saint Petersburg',
      thirdPartyBankAccountOwnerPostalCode: '191186',
      thirdPartyBankAccountOwnerCountryCode: 'RU',
    });
    const created = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    expect(screening.calls[0]).toEqual([
      { field: 'profile', name: 'Camille Durand', kind: 'PERSON', country: 'FR' },
      { field: 'profile.companyName', name: employer, kind: 'COMPANY' },
      // A PERSONAL account has no owner of its own to screen; a third party may be a person or a company.
      {
        field: 'bankAccounts[1].thirdPartyBankAccountOwnerName',
        name: owner,
        kind: 'PERSON_OR_COMPANY',
        country: 'RU',
      },
    ]);
    const screened = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening;
    expect(screened?.status).toBe('POSSIBLE_MATCH');
    expect(screened?.hits.map(({ field, name }) => [field, name])).toEqual([
      ['profile.companyName', employer],
      ['bankAccounts[1].thirdPartyBankAccountOwnerName', owner],
    ]);
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      screeningStatus: 'POSSIBLE_MATCH',
    });
  });

  it('answers CLEAR for a clean name, and screening null when no provider is configured', async () => {
    const { kit } = setup(['Nobody Listed']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().screening).toEqual({
      status: 'CLEAR',
      screenedAt: '2031-01-01T09:00:00.000Z',
      hits: [],
    });

    const unscreened = createMemoryKit();
    const plain = (await unscreened.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    expect(plain.screening).toBeNull();
    expect(unscreened.testing.listScreeningJobs()).toEqual([]);
    // Approval is not held back when the kit screens nobody.
    expect((await unscreened.compliance.approve(compliance, plain.id)).isOk()).toBe(true);
  });

  it('leaves ERROR when the provider fails, and retries with back-off until CLEAR', async () => {
    const { kit, clock, screening } = setup([]);
    screening.failNext(2);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();

    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 1 });
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.status).toBe('ERROR');
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr()).toEqual({
      type: 'ScreeningUnresolved',
      clientId: created.id,
      screeningStatus: 'ERROR',
      trigger: 'APPROVE',
    });
    // Not due before its back-off.
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 0, failed: 0 });
    clock.advance(screeningRetryDelayMs(1));
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 1 });
    expect(kit.testing.listScreeningJobs()).toEqual([
      expect.objectContaining({
        attempts: 2,
        runAt: new Date(clock.now().getTime() + screeningRetryDelayMs(2)),
      }),
    ]);
    clock.advance(screeningRetryDelayMs(2));
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 0 });
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.status).toBe('CLEAR');
    expect((await kit.compliance.approve(compliance, created.id)).isOk()).toBe(true);
  });

  it('runs no job before its back-off, even one of a manager whose turn comes first', async () => {
    const { kit, screening } = setup([]);
    screening.failNext(1);
    const other = demoIdentities.managerB.principal;
    const failed = (await kit.clients.createEntity(other, exampleEntityPayload()))._unsafeUnwrap();
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 1 });
    for (const _ of [1, 2]) (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();

    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 2, failed: 0 });
    expect(kit.testing.listScreeningJobs()).toEqual([
      expect.objectContaining({ clientId: failed.id, attempts: 1 }),
    ]);
  });

  it('refuses approval until every hit is dismissed; a resolution is audited', async () => {
    const { kit } = setup(['Hélène Martin']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      screeningStatus: 'PENDING',
    });
    await kit.testing.screenDueClients();
    const hits = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
    expect(hits.map((hit) => hit.field)).toEqual([
      'representatives[0]',
      'companyDirectorsAndUbos.directors[0]',
      'companyDirectorsAndUbos.ubos[0]',
    ]);
    const [first, second, third] = hits.map((hit) => hit.id) as [string, string, string];
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      screeningStatus: 'POSSIBLE_MATCH',
    });

    const dismiss = { decision: 'DISMISSED', reason: 'Another date of birth' };
    (await kit.screening.resolveHit(compliance, created.id, first, dismiss))._unsafeUnwrap();
    (await kit.screening.resolveHit(compliance, created.id, second, dismiss))._unsafeUnwrap();
    const confirmed = (
      await kit.screening.resolveHit(compliance, created.id, third, {
        decision: 'CONFIRMED',
        reason: 'Same person',
      })
    )._unsafeUnwrap();
    expect(confirmed.screening?.hits[2]?.resolution).toEqual({
      decision: 'CONFIRMED',
      reason: 'Same person',
      actor: compliance.complianceId,
      at: '2031-01-01T09:00:00.000Z',
    });
    // A confirmed hit holds the approval back too.
    expect((await kit.compliance.approve(compliance, created.id)).isErr()).toBe(true);
    (await kit.screening.resolveHit(compliance, created.id, third, dismiss))._unsafeUnwrap();
    expect((await kit.compliance.approve(compliance, created.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );

    const resolutions = kit.testing
      .readAuditEntries(created.id)
      .filter((entry) => entry.action === 'screening-resolution');
    expect(resolutions).toHaveLength(4);
    // The hit is named by its id (an index names another hit after a rescreen), with its listed name.
    expect(resolutions[3]).toMatchObject({
      actor: { kind: 'compliance', id: compliance.complianceId },
      changes: [
        {
          path: `screening.hits[?@.id=='${third}']`,
          before: {
            id: third,
            name: 'Hélène Martin',
            listName: 'Test sanctions',
            matchedName: 'HÉLÈNE MARTIN',
            resolution: expect.objectContaining({ decision: 'CONFIRMED' }),
          },
          after: {
            id: third,
            name: 'Hélène Martin',
            listName: 'Test sanctions',
            matchedName: 'HÉLÈNE MARTIN',
            resolution: expect.objectContaining({ decision: 'DISMISSED' }),
          },
        },
      ],
    });
  });

  it('holds the signed terms back when a hit is confirmed after the approval, and tells the portal', async () => {
    const { kit } = setup(['Hélène Martin']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    const hits = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
    const dismiss = { decision: 'DISMISSED', reason: 'Another date of birth' };
    for (const hit of hits)
      (await kit.screening.resolveHit(compliance, created.id, hit.id, dismiss))._unsafeUnwrap();
    (await kit.compliance.approve(compliance, created.id))._unsafeUnwrap();

    const [hit] = hits;
    if (hit === undefined) expect.fail('a hit');
    const confirm = { decision: 'CONFIRMED', reason: 'Same person after all' };
    (await kit.screening.resolveHit(compliance, created.id, hit.id, confirm))._unsafeUnwrap();
    const refusal = {
      type: 'ScreeningUnresolved',
      clientId: created.id,
      screeningStatus: 'POSSIBLE_MATCH',
      trigger: 'SIGN_TERMS',
    };
    expect((await kit.compliance.markTermsSigned(compliance, created.id))._unsafeUnwrapErr()).toEqual(
      refusal,
    );
    const evidence = {
      termsVersion: '2031-01',
      signedAt: '2031-01-01T09:00:00.000Z',
      signatoryName: 'Hélène Martin',
    };
    expect(
      (await kit.compliance.markTermsSigned(compliance, created.id, evidence))._unsafeUnwrapErr(),
    ).toEqual(refusal);
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );

    // Every decision is an event the portal reads (and webhooks deliver), naming its hit.
    const resolved = (
      await kit.events.list(manager, { type: 'client.screening_hit_resolved' })
    )._unsafeUnwrap().data;
    expect(resolved).toHaveLength(hits.length + 1);
    const last = resolved.at(-1);
    if (last?.type !== 'client.screening_hit_resolved') expect.fail('a resolution event');
    expect(last.data.hitId).toBe(hit.id);
    expect(last.data.client.screening?.hits.find((h) => h.id === hit.id)?.resolution?.decision).toBe(
      'CONFIRMED',
    );

    // Dismissed again, the terms can be signed.
    (await kit.screening.resolveHit(compliance, created.id, hit.id, dismiss))._unsafeUnwrap();
    expect((await kit.compliance.markTermsSigned(compliance, created.id))._unsafeUnwrap().status).toBe(
      'VERIFIED',
    );
  });

  it('refuses a resolution on a deleted client, and screens a client deleted before its screening ran', async () => {
    const { kit } = setup(['Hélène Martin']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    (await kit.clients.delete(manager, created.id))._unsafeUnwrap();
    // Not left PENDING for ever: the job screens it.
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 0 });
    const screening = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening;
    expect(screening?.status).toBe('POSSIBLE_MATCH');
    const [hit] = screening?.hits ?? [];
    if (hit === undefined) expect.fail('a hit');
    expect(
      (
        await kit.screening.resolveHit(compliance, created.id, hit.id, { decision: 'CONFIRMED', reason: 'x' })
      )._unsafeUnwrapErr(),
    ).toEqual({
      type: 'InvalidStatus',
      clientId: created.id,
      currentStatus: 'DELETED',
      trigger: 'RESOLVE_SCREENING_HIT',
    });
    expect(kit.testing.readAuditEntries(created.id).map((entry) => entry.action)).toEqual([
      'create',
      'delete',
      'screening-result',
    ]);
  });

  it('records the screening result in the trail as system, each hit by its id', async () => {
    const { kit, clock, screening } = setup(['Martin Holding SARL']);
    screening.failNext(2);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    clock.advance(screeningRetryDelayMs(1));
    await kit.testing.screenDueClients();
    clock.advance(screeningRetryDelayMs(2));
    await kit.testing.screenDueClients();
    const [hit] = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
    if (hit === undefined) expect.fail('a hit');
    const entries = kit.testing
      .readAuditEntries(created.id)
      .filter((entry) => entry.action === 'screening-result');
    const system = { kind: 'system', id: 'screening' };
    // The second failure changed nothing: no entry.
    expect(entries).toEqual([
      expect.objectContaining({
        actor: system,
        requestId: null,
        changes: [{ path: 'screening.status', before: 'PENDING', after: 'ERROR' }],
      }),
      expect.objectContaining({
        actor: system,
        at: clock.now().toISOString(),
        changes: [
          { path: 'screening.status', before: 'ERROR', after: 'POSSIBLE_MATCH' },
          { path: 'screening.screenedAt', before: null, after: clock.now().toISOString() },
          { path: `screening.hits[?@.id=='${hit.id}']`, before: null, after: hit },
        ],
      }),
    ]);
  });

  it('refuses a bad decision at `decision`, and an unknown hit or client as not found', async () => {
    const { kit } = setup(['Martin Holding SARL']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    await kit.testing.screenDueClients();
    const [hit] = (await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.hits ?? [];
    if (hit === undefined) expect.fail('one hit');

    const bad = await kit.screening.resolveHit(compliance, created.id, hit.id, {
      decision: 'MAYBE',
      reason: 'x',
    });
    expect(bad._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { decision: [expect.any(String)] },
    });
    const unknownHit = '00000000-0000-4000-8000-000000000000';
    expect(
      (
        await kit.screening.resolveHit(compliance, created.id, unknownHit, {
          decision: 'DISMISSED',
          reason: 'x',
        })
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'ScreeningHitNotFound', clientId: created.id, hitId: unknownHit });
    expect(
      (
        await kit.screening.resolveHit(compliance, unknownHit, hit.id, { decision: 'DISMISSED', reason: 'x' })
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'ClientNotFound', clientId: unknownHit });
  });

  it('screens a resubmission again, and never writes a result for names the client no longer has', async () => {
    const { kit, screening } = setup(['Martin Holding SARL']);
    const created = (await kit.clients.createEntity(manager, exampleEntityPayload()))._unsafeUnwrap();
    const payload = exampleEntityPayload();
    const withoutLegalUbo = {
      ...payload,
      companyDirectorsAndUbos: {
        ...payload.companyDirectorsAndUbos,
        ubos: payload.companyDirectorsAndUbos.ubos.filter((ubo) => ubo.typeOfPerson === 'NATURAL'),
      },
    };
    // While the create's names are being screened, compliance asks again and the manager resubmits.
    screening.meanwhile(async () => {
      (
        await kit.compliance.requestResubmission(compliance, created.id, { reason: 'Fix the UBOs' })
      )._unsafeUnwrap();
      const resubmitted = (
        await kit.clients.resubmitEntity(manager, created.id, withoutLegalUbo)
      )._unsafeUnwrap();
      expect(resubmitted.screening).toEqual({ status: 'PENDING', screenedAt: null, hits: [] });
    });
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 0 });
    // The hit on the UBO that is gone was not written: the resubmission's own job screens what it sent.
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().screening?.status).toBe('PENDING');
    expect(await kit.testing.screenDueClients()).toEqual({ jobs: 1, failed: 0 });
    expect(screening.calls).toHaveLength(2);
    expect((await kit.clients.get(manager, created.id))._unsafeUnwrap().screening).toMatchObject({
      status: 'CLEAR',
      hits: [],
    });
  });
});

describe('screening retry delay', () => {
  it('doubles from 1 s after each failed run, at most an hour apart', () => {
    expect([0, 1, 2, 3, 12, 13, 40].map(screeningRetryDelayMs)).toEqual([
      1_000, 1_000, 2_000, 4_000, 2_048_000, 3_600_000, 3_600_000,
    ]);
  });

  it('approves no client stored before the kit had a provider: never screened, it is screened by a resubmission', async () => {
    // The same stores, served first without screening, then (a host turning it on) with it.
    const adapters = createMemoryAdapters();
    const payload = exampleEntityPayload();
    const listedCompany = { ...payload, company: { ...payload.company, name: 'Listed Holding SA' } };
    const before = createOnboardingKit(adapters);
    const [underReview, approvedBefore] = [
      (await before.clients.createEntity(manager, listedCompany))._unsafeUnwrap(),
      (await before.clients.createEntity(manager, listedCompany))._unsafeUnwrap(),
    ];
    (await before.compliance.approve(compliance, approvedBefore.id))._unsafeUnwrap();
    expect(underReview.screening).toBeNull();

    const screening = listProvider(['Listed Holding SA']);
    const kit = createOnboardingKit({ ...adapters, screening: screening.provider });
    // Before: approved (then verified) with `screening: null`, and no list version would ever find it.
    expect((await kit.compliance.approve(compliance, underReview.id))._unsafeUnwrapErr()).toEqual({
      type: 'ScreeningUnresolved',
      clientId: underReview.id,
      screeningStatus: 'NONE',
      trigger: 'APPROVE',
    });
    expect((await kit.compliance.markTermsSigned(compliance, approvedBefore.id))._unsafeUnwrapErr()).toEqual({
      type: 'ScreeningUnresolved',
      clientId: approvedBefore.id,
      screeningStatus: 'NONE',
      trigger: 'SIGN_TERMS',
    });

    (
      await kit.compliance.requestResubmission(compliance, underReview.id, { reason: 'Screen it' })
    )._unsafeUnwrap();
    (await kit.clients.resubmitEntity(manager, underReview.id, listedCompany))._unsafeUnwrap();
    await adapters.testing.screenDueClients(kit);
    const screened = (await kit.clients.get(manager, underReview.id))._unsafeUnwrap();
    expect(screened.screening?.status).toBe('POSSIBLE_MATCH');
    expect((await kit.compliance.approve(compliance, underReview.id))._unsafeUnwrapErr()).toMatchObject({
      type: 'ScreeningUnresolved',
      screeningStatus: 'POSSIBLE_MATCH',
    });
  });
});
