import type { AuditSealingKeys } from './domain/audit-seal.js';
import type { ApiKeyStore } from './ports/api-key-store.js';
import type { AuditLog } from './ports/audit-log.js';
import type { ClientRepository } from './ports/client-repository.js';
import type { Clock } from './ports/clock.js';
import type { DocumentIndex } from './ports/document-index.js';
import type { DocumentStorage } from './ports/document-storage.js';
import type { EventLog } from './ports/event-log.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { IdempotencyStore } from './ports/idempotency-store.js';
import type { PresetFeeRepository } from './ports/preset-fee-repository.js';
import type { ScreenedNameIndex } from './ports/screened-name-index.js';
import type { ScreeningProvider } from './ports/screening-provider.js';
import type { TextHashing } from './ports/text-hashing.js';
import type { UnitOfWork } from './ports/unit-of-work.js';
import type { WebhookDeliveryStore } from './ports/webhook-delivery-store.js';
import type { WebhookEndpointStore } from './ports/webhook-endpoint-store.js';
import type { WebhookTransport } from './ports/webhook-transport.js';

/** Every port the kit runs on. A host wires adapters here once (`createOnboardingKit`). */
export type OnboardingKitPorts = {
  readonly clients: ClientRepository;
  readonly documentIndex: DocumentIndex;
  readonly documentStorage: DocumentStorage;
  readonly presetFees: PresetFeeRepository;
  readonly idempotency: IdempotencyStore;
  /** The transactional outbox of client events. */
  readonly events: EventLog;
  /** The audit trail of client changes and issued download links. */
  readonly audit: AuditLog;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveries: WebhookDeliveryStore;
  /**
   * Sends webhook deliveries (`createNodeWebhookTransport` of @onboarding-kit/webhook-transport,
   * or a recording one in tests). Without one the kit sends no webhook: the job runners refuse to
   * start when the store holds an endpoint (`kit.webhooks.hasTransport`).
   */
  readonly webhookTransport?: WebhookTransport;
  readonly apiKeys: ApiKeyStore;
  readonly unitOfWork: UnitOfWork;
  /** The time; `systemClock` when absent. */
  readonly clock?: Clock;
  /** Ids (UUID v4); the platform's `crypto.randomUUID` when absent (`randomUuids`). */
  readonly ids?: IdGenerator;
  /** SHA-256 for API key digests and request fingerprints; core's portable one when absent. */
  readonly hashing?: TextHashing;
  /**
   * Screens the client's people and companies after every create and resubmit, on the job engine
   * (`createListScreeningProvider` of @onboarding-kit/screening-list). Without one, screening is off
   * and every client answers `screening: null`.
   */
  readonly screening?: ScreeningProvider;
  /** The index of screened names that a new list version is matched against (monitoring). */
  readonly screenedNames: ScreenedNameIndex;
  /**
   * Keys to seal every audit entry with (an HMAC of its chain hash, docs/data-protection.md), kept
   * by the host outside the database: with them a role with only database access cannot append an
   * entry that verifies, and `kit.audit.verify` checks every seal. Recommended; without them
   * entries are chained but not sealed. Not part of `kit.options` (which hosts may log).
   */
  readonly auditSealing?: AuditSealingKeys;
};
