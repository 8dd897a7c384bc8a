import { runScreeningMonitoringContract } from '@onboarding-kit/contract-tests';
import { createControllableClock, createOnboardingKit } from '@onboarding-kit/core';
import { createMemoryKit } from '../src/index.js';

runScreeningMonitoringContract({
  name: 'memory',
  setup: async (list) => {
    const clock = createControllableClock(new Date('2031-01-01T09:00:00.000Z'));
    const kit = createMemoryKit({ clock, screening: list });
    return {
      kit,
      // A second kit over the same adapters: what a second process shares is the store.
      otherProcess: createOnboardingKit(kit.adapters),
      runJobs: async () => {
        // Retries wait their back-off on the kit's clock: move it past each one.
        for (let round = 0; round < 50; round += 1) {
          await kit.testing.screenDueClients();
          const next = kit.testing.listScreeningJobs()[0];
          if (next === undefined) return;
          if (next.runAt > clock.now()) clock.set(next.runAt);
        }
        throw new Error('screening jobs still queued after 50 rounds');
      },
      inspect: {
        readScreenedNames: async (clientId) => kit.testing.readScreenedNames(clientId),
        forgetScreenedNames: async (clientId) => {
          (await kit.adapters.screenedNames.replace(clientId, []))._unsafeUnwrap();
        },
        countListChangeJobs: async (version) => kit.testing.countListChangeJobs(version),
      },
    };
  },
});
