import type { ResultAsync } from 'neverthrow';
import type {
  DomainError,
  PresetFeeIdTaken,
  StorageUnavailable,
  Unauthorized,
  ValidationFailed,
} from './errors.js';
import type { ApiKeyStore } from './ports/api-key-store.js';
import type { ClientRepository } from './ports/client-repository.js';
import type { Clock } from './ports/clock.js';
import type { DocumentIndex } from './ports/document-index.js';
import type { DocumentStorage } from './ports/document-storage.js';
import type { EventLog } from './ports/event-log.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { IdempotencyClaimRef, IdempotencyStore, RecordedOutcome } from './ports/idempotency-store.js';
import type { PresetFeeRepository } from './ports/preset-fee-repository.js';
import type { TextHashing } from './ports/text-hashing.js';
import type { UnitOfWork } from './ports/unit-of-work.js';
import type { WebhookDeliveryStore } from './ports/webhook-delivery-store.js';
import type { WebhookEndpointStore } from './ports/webhook-endpoint-store.js';
import type { WebhookJob } from './ports/webhook-job-queue.js';
import type { WebhookTransport } from './ports/webhook-transport.js';
import type { CompliancePrincipal, ManagerPrincipal, Principal, UploaderPrincipal } from './principal.js';
import type { ClientEventListResponse } from './schemas/client-events.js';
import type { Client, ClientListResponse, StatusHistoryEntry } from './schemas/client-response.js';
import type {
  BatchDownloadResponse,
  BatchUploadResponse,
  TemporaryFilesResponse,
} from './schemas/documents.js';
import type { OnboardingPayloadSchemas } from './schemas/onboarding-payloads.js';
import type { PresetFee, PresetFeeListItem, PresetFeeResponse } from './schemas/preset-fee.js';
import type {
  CreatedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryListResponse,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookSecretRotationResponse,
} from './schemas/webhook-endpoints.js';
import type { ReferenceLists } from './validation/reference-lists.js';

/** Every port the kit runs on. A host wires adapters here once (`createOnboardingKit`). */
export type OnboardingKitPorts = {
  readonly clients: ClientRepository;
  readonly documentIndex: DocumentIndex;
  readonly documentStorage: DocumentStorage;
  readonly presetFees: PresetFeeRepository;
  readonly idempotency: IdempotencyStore;
  /** The transactional outbox of client events. */
  readonly events: EventLog;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveries: WebhookDeliveryStore;
  /**
   * Sends webhook deliveries (`createNodeWebhookTransport` of @onboarding-kit/webhook-transport,
   * or a recording one in tests). Without one, every attempt fails with that reason.
   */
  readonly webhookTransport?: WebhookTransport;
  readonly apiKeys: ApiKeyStore;
  readonly unitOfWork: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** SHA-256 for API key digests and request fingerprints; core's portable one when absent. */
  readonly hashing?: TextHashing;
};

export type OnboardingKitOptions = {
  /** Replace any supported-value list (decisions §7). */
  readonly referenceLists?: Partial<ReferenceLists>;
  /** Largest document accepted at use, in bytes (default 25 MiB). */
  readonly maxDocumentBytes?: number;
  /** Lifetime of presigned upload addresses (default 15 minutes). */
  readonly uploadUrlTtlMs?: number;
  /** Lifetime of presigned download addresses (default 15 minutes). */
  readonly downloadUrlTtlMs?: number;
  /** How long an uploaded file stays usable in temporary storage (default 24 hours). */
  readonly temporaryFileTtlMs?: number;
  /** How long an idempotency record is replayed (default 24 hours). */
  readonly idempotencyRecordTtlMs?: number;
  /** After this an in-progress idempotency lock of a crashed process is taken over (default 60 s). */
  readonly idempotencyLockTtlMs?: number;
  /**
   * Live idempotency records one caller may hold (default 10,000, `null` for no bound): a request
   * with a new key beyond it is 429 `TOO_MANY_REQUESTS` with `Retry-After` (when the caller's oldest
   * record expires). Bounds what one key holder can make the kit store; replays are never refused.
   */
  readonly idempotencyMaxRecordsPerOwner?: number | null;
  /** How long a webhook delivery is retried before it is marked failed (default 3 days). */
  readonly webhookRetryWindowMs?: number;
  /** How long one delivery attempt may take, connection to answer (default 10 s). */
  readonly webhookAttemptTimeoutMs?: number;
  /** How long a rotated-out webhook secret keeps signing next to the new one (default 24 hours). */
  readonly webhookSecretOverlapMs?: number;
  /**
   * Accept webhook endpoints on loopback, private and link-local addresses, and plain http
   * (default false: https to public addresses only). `true` for every endpoint (development,
   * tests, receivers inside the host's own network); a list of URLs for those endpoints only
   * (the demo's `WEBHOOK_URL`), every other one judged as with false.
   */
  readonly webhookAllowPrivateNetworks?: boolean | readonly string[];
  /** Webhook endpoints one manager may register (default 20). */
  readonly maxWebhookEndpointsPerManager?: number;
  /**
   * How long `authenticate` reuses what the ApiKeyStore answered for a key (default 10 s, 0 to
   * ask the store on every request). A key revoked or re-pointed through this kit
   * (`revokeApiKey`, `registerApiKey`) is refused or re-pointed at once; one revoked elsewhere
   * (another process, the table edited by hand) keeps working here for up to this long.
   */
  readonly apiKeyCacheTtlMs?: number;
  /** Keys `authenticate` keeps at most (default 10,000; the oldest goes first). */
  readonly apiKeyCacheMaxEntries?: number;
};

export type ResolvedOnboardingKitOptions = Required<Omit<OnboardingKitOptions, 'referenceLists'>> & {
  readonly referenceLists: ReferenceLists;
};

/**
 * Makes one call of a mutating command idempotent: the claim its caller holds on an Idempotency-Key
 * (`kit.idempotency.claim`). The command then owns the claim: it records its outcome in its own
 * transaction (a success with its writes, a recordable refusal on its own) or releases the claim
 * (any other failure). The caller only maps the outcome; it never completes or releases the claim.
 */
export type IdempotentCommandContext = { readonly claim?: IdempotencyClaimRef };

/** What an incoming idempotent request may do. */
export type IdempotencyDecision =
  | { readonly type: 'Claimed'; readonly ref: IdempotencyClaimRef }
  | { readonly type: 'Replay'; readonly outcome: RecordedOutcome };

export type IdempotencyClaimInput = {
  /** Principal + method + route with its path parameters. */
  readonly scope: string;
  /** The `Idempotency-Key` value, already parsed. */
  readonly key: string;
  /** The caller's `principalKey`: whose quota of live records the claim counts against. */
  readonly owner: string;
  /** The parsed request body; its canonical JSON is fingerprinted. */
  readonly body: unknown;
};

export interface ClientService {
  createIndividual(
    principal: ManagerPrincipal,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  createEntity(
    principal: ManagerPrincipal,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  resubmitIndividual(
    principal: ManagerPrincipal,
    clientId: string,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  resubmitEntity(
    principal: ManagerPrincipal,
    clientId: string,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  get(principal: ManagerPrincipal, clientId: string): ResultAsync<Client, DomainError>;
  /** `query` is the raw query string object: status, clientType, limit, cursor. */
  list(principal: ManagerPrincipal, query: unknown): ResultAsync<ClientListResponse, DomainError>;
  delete(
    principal: ManagerPrincipal,
    clientId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  statusHistory(
    principal: ManagerPrincipal,
    clientId: string,
  ): ResultAsync<StatusHistoryEntry[], DomainError>;
}

export interface ComplianceService {
  approve(
    principal: CompliancePrincipal,
    clientId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  requestResubmission(
    principal: CompliancePrincipal,
    clientId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  markTermsSigned(
    principal: CompliancePrincipal,
    clientId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
}

export interface DocumentService {
  requestUploadBatch(
    principal: UploaderPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<BatchUploadResponse, DomainError>;
  listUploads(principal: UploaderPrincipal): ResultAsync<TemporaryFilesResponse, DomainError>;
  requestDownloadBatch(
    principal: ManagerPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<BatchDownloadResponse, DomainError>;
  /**
   * Removes permanent documents that no client references and that are older than `graceMs`
   * (default 24 hours): the copies of a command that crashed between its copy and its commit, or
   * whose commit was not kept. Safe to run on several instances at once (it deletes only what has no
   * index row); schedule it (the demo runs it hourly). Resolves to how many were removed.
   * `graceMs` below one hour (a copy still on its way to its commit could be taken) or a `pageSize`
   * outside 1..10,000 is refused with `ValidationFailed`. The index must be as durable as the files:
   * a memory index over S3 storage starts empty after a restart, and the sweep would then delete
   * every document (docs/host-integration.md §7).
   */
  sweepOrphanDocuments(options?: {
    readonly graceMs?: number;
    readonly pageSize?: number;
  }): ResultAsync<number, DomainError>;
}

export interface ClientEventService {
  /**
   * The manager's events, oldest first, after the opaque cursor `after`; `query` is the raw query
   * (`after`, `limit` 1..100, `type`, `clientId`).
   */
  list(principal: ManagerPrincipal, query: unknown): ResultAsync<ClientEventListResponse, DomainError>;
}

export interface PresetFeeService {
  list(principal: ManagerPrincipal): ResultAsync<PresetFeeListItem[], DomainError>;
  get(principal: ManagerPrincipal, presetFeeId: string): ResultAsync<PresetFeeResponse, DomainError>;
  /** The write side (seeding, admin): validates the configuration, then stores. */
  add(managerId: string, fee: PresetFee): ResultAsync<PresetFee, DomainError | PresetFeeIdTaken>;
}

/** What one webhook job did: how many attempts it made and how they ended. */
export type WebhookJobReport = {
  readonly attempted: number;
  readonly succeeded: number;
  readonly retrying: number;
  readonly failed: number;
};

/**
 * Webhook endpoints of a manager and the deliveries of its events (issue 9). Runners (the
 * PostgreSQL job engine, the memory queue) hand each job to `runJob`.
 */
export interface WebhookService {
  createEndpoint(
    principal: ManagerPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<CreatedWebhookEndpoint, DomainError>;
  listEndpoints(principal: ManagerPrincipal): ResultAsync<WebhookEndpointListResponse, DomainError>;
  getEndpoint(principal: ManagerPrincipal, endpointId: string): ResultAsync<WebhookEndpoint, DomainError>;
  /** Removes the endpoint and its deliveries; answers the endpoint as it was. */
  deleteEndpoint(
    principal: ManagerPrincipal,
    endpointId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookEndpoint, DomainError>;
  rotateSecret(
    principal: ManagerPrincipal,
    endpointId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookSecretRotationResponse, DomainError>;
  listDeliveries(
    principal: ManagerPrincipal,
    endpointId: string,
    query: unknown,
  ): ResultAsync<WebhookDeliveryListResponse, DomainError>;
  /** Attempts a delivery again now, whatever its status, with a fresh retry window. */
  redeliver(
    principal: ManagerPrincipal,
    endpointId: string,
    deliveryId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookDelivery, DomainError>;
  runJob(job: WebhookJob): ResultAsync<WebhookJobReport, DomainError>;
}

export interface IdempotencyService {
  /** Claims the key, or answers with the replay, `IdempotencyRequestInProgress` or `IdempotencyKeyReused`. */
  claim(input: IdempotencyClaimInput): ResultAsync<IdempotencyDecision, DomainError>;
  /**
   * Records a host route's answer (the binding's middleware does, for routes that are not kit
   * commands: kit commands record their own outcome).
   */
  complete(ref: IdempotencyClaimRef, outcome: RecordedOutcome): ResultAsync<void, DomainError>;
  release(ref: IdempotencyClaimRef): ResultAsync<void, DomainError>;
  /**
   * Keeps a running claim's lock: call it every `lockRenewalIntervalMs` while the command runs (the
   * Express binding does). `IdempotencyRequestInProgress` when the lock was already lost.
   */
  renew(ref: IdempotencyClaimRef): ResultAsync<void, DomainError>;
  /** A third of the lock TTL: two renewals may fail before another request could take the key over. */
  readonly lockRenewalIntervalMs: number;
  /** Deletes expired records in batches; resolves to how many were deleted. */
  purgeExpired(batchSize?: number): ResultAsync<number, DomainError>;
}

export interface OnboardingKit {
  readonly options: ResolvedOnboardingKitOptions;
  readonly payloadSchemas: OnboardingPayloadSchemas;
  /** Resolves a raw `SERVICE_API_KEY` value to its principal. */
  authenticate(apiKey: string | undefined): ResultAsync<Principal, Unauthorized | StorageUnavailable>;
  /**
   * Registers an API key (stored as its SHA-256 digest only), trimmed as `authenticate` trims what a
   * request presents; a blank key is `ValidationFailed`.
   */
  registerApiKey(
    apiKey: string,
    principal: Principal,
  ): ResultAsync<void, ValidationFailed | StorageUnavailable>;
  /**
   * Revokes an API key (trimmed like `registerApiKey`): from then on it is 401 through this kit,
   * and within `apiKeyCacheTtlMs` through any other kit on the same store. Revoking an unknown
   * key is not an error; a blank key is `ValidationFailed`.
   */
  revokeApiKey(apiKey: string): ResultAsync<void, ValidationFailed | StorageUnavailable>;
  readonly clients: ClientService;
  readonly compliance: ComplianceService;
  readonly documents: DocumentService;
  readonly presetFees: PresetFeeService;
  readonly events: ClientEventService;
  readonly webhooks: WebhookService;
  readonly idempotency: IdempotencyService;
}
