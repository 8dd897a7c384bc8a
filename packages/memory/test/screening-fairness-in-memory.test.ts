import { runScreeningFairnessContract } from '@onboarding-kit/contract-tests';
import { createMemoryKit } from '../src/index.js';

runScreeningFairnessContract({
  name: 'memory',
  setup: async (screening) => {
    const kit = createMemoryKit({ screening });
    return {
      kit,
      // As the demo's runner: a round of the jobs due, again and again.
      startScreening: async (concurrency = 1) => {
        let stopping = false;
        const rounds = (async () => {
          while (!stopping) {
            await kit.testing.screenDueClients({ concurrency });
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        return async () => {
          stopping = true;
          await rounds;
        };
      },
    };
  },
});
