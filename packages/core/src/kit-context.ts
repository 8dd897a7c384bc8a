import type { ResolvedOnboardingKitOptions } from './onboarding-kit-options.js';
import type { OnboardingKitPorts } from './onboarding-kit-ports.js';
import type { Clock } from './ports/clock.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { TextHashing } from './ports/text-hashing.js';
import type { OnboardingPayloadSchemas } from './schemas/onboarding-payloads.js';

/** What every service of one kit shares: its ports, its resolved options and its payload schemas. */
export type KitContext = {
  /** The host's ports, the clock and ids defaulted. */
  readonly ports: OnboardingKitPorts & { readonly clock: Clock; readonly ids: IdGenerator };
  readonly options: ResolvedOnboardingKitOptions;
  readonly schemas: OnboardingPayloadSchemas;
  readonly hashing: TextHashing;
};
