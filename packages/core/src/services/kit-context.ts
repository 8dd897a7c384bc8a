import type { OnboardingKitPorts, ResolvedOnboardingKitOptions } from '../onboarding-kit.js';
import type { TextHashing } from '../ports/text-hashing.js';
import type { OnboardingPayloadSchemas } from '../schemas/onboarding-payloads.js';

/** What every service of one kit shares: its ports, its resolved options and its payload schemas. */
export type KitContext = {
  readonly ports: OnboardingKitPorts;
  readonly options: ResolvedOnboardingKitOptions;
  readonly schemas: OnboardingPayloadSchemas;
  readonly hashing: TextHashing;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Identifiers are UUIDs: anything else cannot name a resource, so it is "not found" without a lookup. */
export const isUuid = (value: string): boolean => uuidPattern.test(value);
