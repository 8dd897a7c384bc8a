import { createOnboardingKit, type OnboardingKit, type OnboardingKitOptions } from '@onboarding-kit/core';
import {
  createMemoryAdapters,
  type MemoryAdapters,
  type MemoryAdaptersOptions,
  type MemoryTestingHelpers,
} from './memory-adapters.js';
import type { ScreeningRound, ScreeningRoundOptions } from './memory-screening-job-queue.js';
import type { WebhookDeliveryRound } from './memory-webhook-job-queue.js';

/** The testing helpers of a memory kit, with delivery bound to that kit. */
export type MemoryKitTesting = Omit<MemoryTestingHelpers, 'deliverDueWebhooks' | 'screenDueClients'> & {
  /** Runs every webhook job due at the clock's now (no timer): advance the clock, call, assert. */
  deliverDueWebhooks(): Promise<WebhookDeliveryRound>;
  /** Runs every screening job due at the clock's now (no timer), fairly between managers. */
  screenDueClients(options?: ScreeningRoundOptions): Promise<ScreeningRound>;
};

/** A whole kit in memory, for a host's unit tests: the kit, its adapters and `testing`. */
export type MemoryKit = OnboardingKit & {
  readonly adapters: MemoryAdapters;
  readonly testing: MemoryKitTesting;
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
