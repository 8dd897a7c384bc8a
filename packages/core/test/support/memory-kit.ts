import { createControllableClock, createMemoryAdapters } from '@onboarding-kit/memory';
import {
  createOnboardingKit,
  type ManagerPrincipal,
  type OnboardingKitOptions,
  principalKey,
} from '../../src/index.js';

/** A kit on memory adapters with a controllable clock, as a host's unit tests would build it. */
export const createMemoryKit = (options: OnboardingKitOptions = {}) => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock });
  const kit = createOnboardingKit({ ...adapters, options });
  const upload = (principal: ManagerPrincipal, filename: string, bytes: Uint8Array | number = 128) =>
    adapters.testing.putTemporaryFile(
      principalKey(principal),
      filename,
      typeof bytes === 'number' ? new Uint8Array(bytes).fill(7) : bytes,
    );
  return { kit, adapters, clock, upload };
};

export const aManager = (): ManagerPrincipal => ({ kind: 'manager', managerId: crypto.randomUUID() });
