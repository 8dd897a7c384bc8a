import { createOnboardingKit, type OnboardingKit, type OnboardingKitOptions } from '@onboarding-kit/core';
import { createMemoryAdapters, type MemoryAdapters, type MemoryAdaptersOptions } from './memory-adapters.js';
import type { ScreeningRoundOptions } from './memory-screening-job-queue.js';

type Helpers = MemoryAdapters['testing'];

/** A whole kit in memory, for a host's unit tests: the kit, its adapters and `testing`. */
export type MemoryKit = OnboardingKit & {
  readonly adapters: MemoryAdapters;
  /** The adapters' testing helpers, with the jobs run through this kit. */
  readonly testing: Omit<Helpers, 'deliverDueWebhooks' | 'screenDueClients'> & {
    /** Runs every webhook job due at the clock's now (no timer): advance the clock, call, assert. */
    deliverDueWebhooks(): ReturnType<Helpers['deliverDueWebhooks']>;
    /** Runs every screening job due at the clock's now (no timer), fairly between managers. */
    screenDueClients(options?: ScreeningRoundOptions): ReturnType<Helpers['screenDueClients']>;
  };
};

/** `createOnboardingKit` over `createMemoryAdapters`, in one call. */
export const createMemoryKit = ({
  kitOptions,
  ...adapterOptions
}: MemoryAdaptersOptions & { readonly kitOptions?: OnboardingKitOptions } = {}): MemoryKit => {
  const adapters = createMemoryAdapters(adapterOptions);
  const kit = createOnboardingKit(kitOptions === undefined ? adapters : { ...adapters, options: kitOptions });
  return {
    ...kit,
    adapters,
    testing: {
      ...adapters.testing,
      deliverDueWebhooks: () => adapters.testing.deliverDueWebhooks(kit),
      screenDueClients: (options) => adapters.testing.screenDueClients(kit, options),
    },
  };
};
