import { demoIdentities, exampleIndividualPayload, seedDemoData } from '@onboarding-kit/core';
import { createMemoryKit } from '@onboarding-kit/memory';
import { describe, expect, test } from 'vitest';
import { bindingOnlyKit } from '../bench-support/binding-only-kit.js';

const managerA = demoIdentities.managerA.principal;

const seededKit = async () => {
  const kit = createMemoryKit();
  (await seedDemoData(kit.adapters))._unsafeUnwrap();
  return kit;
};

describe("the HTTP bench's binding-only kit (bench/http-target.ts binding)", () => {
  test('answers the fixed client to a valid payload and stores nothing', async () => {
    const kit = await seededKit();
    const before = (await kit.clients.list(managerA, { limit: '100' }))._unsafeUnwrap().data.length;
    const answer = { id: 'fixed', status: 'ONBOARDING_UNDER_REVIEW' };
    const bound = bindingOnlyKit(kit, answer);
    const outcome = await bound.clients.createIndividual(
      managerA,
      exampleIndividualPayload({ idDocuments: ['never-uploaded.pdf'] }),
      {},
    );
    expect(outcome._unsafeUnwrap()).toBe(answer);
    expect((await kit.clients.list(managerA, { limit: '100' }))._unsafeUnwrap().data).toHaveLength(before);
  });

  test('a payload the schema refuses gets the real service answer', async () => {
    const kit = await seededKit();
    const bound = bindingOnlyKit(kit, { id: 'fixed' });
    const payload = { ...exampleIndividualPayload(), individualProfile: null };
    const outcome = await bound.clients.createIndividual(managerA, payload, {});
    const real = await kit.clients.createIndividual(managerA, payload, {});
    expect(outcome._unsafeUnwrapErr()).toEqual(real._unsafeUnwrapErr());
    expect(outcome._unsafeUnwrapErr().type).toBe('ValidationFailed');
  });

  test("every other service is the kit's own", async () => {
    const kit = await seededKit();
    const bound = bindingOnlyKit(kit, {});
    expect(bound.presetFees).toBe(kit.presetFees);
    expect(bound.clients.list).toBe(kit.clients.list);
    expect(bound.apiKeys).toBe(kit.apiKeys);
  });
});
