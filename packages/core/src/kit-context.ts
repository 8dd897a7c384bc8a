import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { AuditSealer } from './domain/audit-seal.js';
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
  /**
   * Seals each audit entry appended (undefined without `auditSealing`): every `audit.append` of
   * the kit passes it, the commands' through `CommandStoresOf`.
   */
  readonly auditSealer: AuditSealer | undefined;
};

// The platform's clock, ids and hashing: what the kit uses when the host gives none.

/** The time: the system clock. */
export const systemClock: Clock = { now: () => new Date() };

/** Ids: the platform's random UUID v4 (Web Crypto). */
export const randomUuids: IdGenerator = { uuid: () => crypto.randomUUID() };

/**
 * SHA-256 in portable JavaScript (noble): API key digests, request fingerprints and the audit chain.
 * A host may plug the platform's native hash (about 3× faster on Node), as `nodeTextHashing` of the
 * memory package does; nobody feels the difference on a request.
 */
export const portableTextHashing: TextHashing = {
  sha256Hex: (text) => bytesToHex(sha256(utf8ToBytes(text))),
};
