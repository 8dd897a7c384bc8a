import { runWebhookFairnessContract } from '@onboarding-kit/contract-tests';
import { createMemoryKit } from '../src/index.js';

runWebhookFairnessContract({
  name: 'memory',
  setup: async (webhookTransport) => {
    const kit = createMemoryKit({ webhookTransport });
    return {
      kit,
      // One round of the jobs due on the kit's clock (all of them: nothing waits), one at a time.
      startDelivery: async () => {
        const round = kit.adapters.testing.deliverDueWebhooks(kit, { concurrency: 1 });
        return async () => {
          await round;
        };
      },
    };
  },
});
