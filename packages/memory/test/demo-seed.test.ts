import {
  createControllableClock,
  createOnboardingKit,
  demoIdentities,
  seedDemoData,
} from '@onboarding-kit/core';
import { validateFeeConfiguration } from '@onboarding-kit/core/schemas';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

const managers = [demoIdentities.managerA.principal, demoIdentities.managerB.principal];

describe('demo seeding', () => {
  it('registers the four demo keys, each resolving to its principal', async () => {
    const adapters = createMemoryAdapters();
    (await seedDemoData(adapters))._unsafeUnwrap();
    const kit = createOnboardingKit(adapters);
    for (const identity of Object.values(demoIdentities)) {
      expect((await kit.apiKeys.authenticate(identity.apiKey))._unsafeUnwrap()).toEqual(identity.principal);
    }
    // Only digests are kept.
    const stored = JSON.stringify(adapters.testing.listApiKeyDigests());
    for (const identity of Object.values(demoIdentities)) expect(stored).not.toContain(identity.apiKey);
  });

  it('creates client a1 of manager A under review, with its creation entry and no documents', async () => {
    const clock = createControllableClock(new Date('2031-02-03T04:05:06.789Z'));
    const adapters = createMemoryAdapters({ clock });
    (await seedDemoData(adapters))._unsafeUnwrap();
    const kit = createOnboardingKit(adapters);
    const { clientId, managerId } = demoIdentities.clientA1.principal;

    const client = (await kit.clients.get(demoIdentities.managerA.principal, clientId))._unsafeUnwrap();
    expect(client).toMatchObject({
      id: clientId,
      clientType: 'INDIVIDUAL',
      status: 'ONBOARDING_UNDER_REVIEW',
      createdAt: '2031-02-03T04:05:06.789Z',
    });
    expect(client.individualProfile?.idDocuments).toEqual([]);
    expect(adapters.testing.readClient(clientId)?.managerId).toBe(managerId);
    expect(adapters.testing.readStatusHistory(clientId)).toEqual([
      {
        from: null,
        to: 'ONBOARDING_UNDER_REVIEW',
        reason: null,
        actor: `manager:${managerId}`,
        at: '2031-02-03T04:05:06.789Z',
      },
    ]);
    // Manager B cannot see it.
    expect((await kit.clients.get(demoIdentities.managerB.principal, clientId))._unsafeUnwrapErr()).toEqual({
      type: 'ClientNotFound',
      clientId,
    });
  });

  it('seeds each manager with valid fees of both configuration types, fee groups and directions', async () => {
    const adapters = createMemoryAdapters();
    (await seedDemoData(adapters))._unsafeUnwrap();
    const ids = new Set<string>();
    for (const manager of managers) {
      const fees = (await adapters.presetFees.listByManager(manager.managerId))._unsafeUnwrap();
      expect(fees.length).toBeGreaterThanOrEqual(4);
      expect(new Set(fees.map((fee) => fee.configuration.type))).toEqual(new Set(['FLAT', 'MONTHLY_VOLUME']));
      expect(new Set(fees.map((fee) => fee.feeDirection))).toEqual(new Set(['ONRAMP', 'OFFRAMP']));
      expect(new Set(fees.map((fee) => `${fee.fiatFeeGroup}/${fee.blockchainFeeGroup}`))).toEqual(
        new Set(['USD/USD_STABLECOIN', 'G10/EUR_STABLECOIN']),
      );
      expect(new Set(fees.map((fee) => fee.createdAt)).size).toBe(fees.length);
      for (const fee of fees) {
        expect(validateFeeConfiguration(fee.configuration).isOk()).toBe(true);
        ids.add(fee.id);
      }
    }
    expect(ids.size).toBe(8);
  });

  it('is idempotent: seeding twice, even later, duplicates and changes nothing', async () => {
    const clock = createControllableClock(new Date('2031-02-03T04:05:06.789Z'));
    const adapters = createMemoryAdapters({ clock });
    (await seedDemoData(adapters))._unsafeUnwrap();
    const snapshot = async () => ({
      fees: await Promise.all(
        managers.map(async (m) => (await adapters.presetFees.listByManager(m.managerId))._unsafeUnwrap()),
      ),
      clients: (
        await adapters.clients.list({ managerId: demoIdentities.managerA.principal.managerId, limit: 100 })
      )._unsafeUnwrap(),
      history: adapters.testing.readStatusHistory(demoIdentities.clientA1.principal.clientId),
      keys: adapters.testing.listApiKeyDigests(),
    });
    const first = await snapshot();

    clock.advance(3_600_000);
    (await seedDemoData(adapters))._unsafeUnwrap();
    const concurrent = await Promise.all([seedDemoData(adapters), seedDemoData(adapters)]);
    expect(concurrent.map((r) => r.isOk())).toEqual([true, true]);

    expect(await snapshot()).toEqual(first);
    expect(first.clients).toHaveLength(1);
    expect(first.keys).toHaveLength(4);
  });
});
