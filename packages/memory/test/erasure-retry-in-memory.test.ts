import { runErasureRetryContract, storageKeysOf } from '@onboarding-kit/contract-tests';
import { createOnboardingKit } from '@onboarding-kit/core';
import { createMemoryAdapters } from '../src/index.js';

runErasureRetryContract({
  name: 'memory',
  setup: async (ports = {}) => {
    const adapters = createMemoryAdapters();
    const storedAnswer = async (scope: string, key: string) => {
      const record = adapters.testing.readIdempotencyRecord(scope, key);
      return record === null ? null : JSON.stringify(record.outcome);
    };
    return {
      kit: createOnboardingKit({ ...adapters, ...ports }),
      manager: { kind: 'manager', managerId: 'manager-retry' },
      storedAnswer,
      dump: async () => adapters.testing.dump(),
      upload: (filename) =>
        adapters.testing.putTemporaryFile('manager:manager-retry', filename, new Uint8Array(8)),
      storageKeys: () => storageKeysOf(adapters.documentStorage, adapters.testing.listTemporaryOwners()),
    };
  },
});
