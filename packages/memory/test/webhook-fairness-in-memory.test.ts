import { runWebhookFairnessContract } from '@onboarding-kit/contract-tests';
import { createMemoryKit } from '../src/index.js';

runWebhookFairnessContract({
  name: 'memory',
  setup: async (webhookTransport) => {
    const kit = createMemoryKit({ webhookTransport });
    return {
      kit,
      // As the demo's runner: a round of the jobs due (one job at a time), again and again.
      startDelivering: async () => {
        let stopping = false;
        const rounds = (async () => {
          while (!stopping) {
            await kit.testing.deliverDueWebhooks();
            await new Promise(setImmediate);
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
