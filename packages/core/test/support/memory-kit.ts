import { createMemoryAdapters } from '@onboarding-kit/memory';
import {
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
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

/**
 * A memory kit (`createMemoryKit`) with a manager and one individual client it created from the
 * example payload (its passport uploaded first): the client under review most tests start from.
 */
export const aCreatedIndividual = async (options: OnboardingKitOptions = {}) => {
  const setup = createMemoryKit(options);
  const manager = aManager();
  setup.upload(manager, 'passport.pdf');
  const client = (
    await setup.kit.clients.createIndividual(manager, exampleIndividualPayload())
  )._unsafeUnwrap();
  return { ...setup, manager, client };
};
