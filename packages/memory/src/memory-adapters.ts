import { randomBytes } from 'node:crypto';
import {
  type AuditEntry,
  type Clock,
  type OnboardingKit,
  type OnboardingKitPorts,
  type PresetFee,
  type Principal,
  type StatusHistoryEntry,
  systemClock,
} from '@onboarding-kit/core';
import type {
  DocumentRecord,
  IdGenerator,
  IndexedScreeningName,
  RecordedOutcome,
  ScreeningJob,
  ScreeningProvider,
  StoredClient,
  WebhookAnswer,
  WebhookJob,
  WebhookRequest,
  WebhookTransport,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { createRandomIds } from './id-generators.js';
import { createMemoryApiKeyStore } from './memory-api-key-store.js';
import { createMemoryAuditLog } from './memory-audit-log.js';
import { createMemoryClientRepository } from './memory-client-repository.js';
import { createMemoryDatabase, dueOrder, idempotencyRecordId } from './memory-database.js';
import { createMemoryDocumentIndex } from './memory-document-index.js';
import { createMemoryDocumentStorage, type MemorySignedLinks } from './memory-document-storage.js';
import { createMemoryEventLog } from './memory-event-log.js';
import { createMemoryIdempotencyStore } from './memory-idempotency-store.js';
import { createMemoryPresetFeeRepository, type OwnedPresetFee } from './memory-preset-fee-repository.js';
import { createMemoryScreenedNameIndex } from './memory-screened-name-index.js';
import {
  queuedScreeningJobs,
  runDueScreeningJobs,
  type ScreeningRound,
  type ScreeningRoundOptions,
} from './memory-screening-job-queue.js';
import { createMemoryUnitOfWork } from './memory-unit-of-work.js';
import { createMemoryWebhookDeliveryStore } from './memory-webhook-delivery-store.js';
import { createMemoryWebhookEndpointStore } from './memory-webhook-endpoint-store.js';
import { enqueueWebhookJob, takeDueWebhookJobs } from './memory-webhook-job-queue.js';
import {
  runDueWebhookJobs,
  type WebhookDeliveryRound,
  type WebhookRoundOptions,
} from './memory-webhook-runner.js';
import { createRecordingWebhookTransport } from './recording-webhook-transport.js';

export type MemoryAdaptersOptions = {
  /** Default: the system clock. Pass `createControllableClock()` to expire links and files at will. */
  readonly clock?: Clock;
  /** Default: random UUID v4. */
  readonly ids?: IdGenerator;
  /** HMAC key of the presigned links (default: 32 random bytes, so links die with the process). */
  readonly signingSecret?: string | Uint8Array;
  /** Where the express storage router is mounted (default 'http://localhost:3000/storage'). */
  readonly publicBaseUrl?: string;
  /**
   * Largest upload body accepted (default 25 MiB + 1 KiB): a bit above core's 25 MiB limit at use,
   * so that an over-limit file can be uploaded and the rule exercised where it applies.
   */
  readonly maxUploadBytes?: number;
  /** How long an uploaded file stays before it is purged (default 24 hours, as core judges it). */
  readonly temporaryFileTtlMs?: number;
  /**
   * Per-owner bound on temporary storage, so that one key cannot fill the process's memory
   * (defaults: 100 files and 256 MiB per owner). An upload past it answers 413.
   */
  readonly maxTemporaryFilesPerOwner?: number;
  readonly maxTemporaryBytesPerOwner?: number;
  /**
   * Sends webhook deliveries. Default: a recording transport that sends nothing and answers 200
   * (read what was sent with `testing.sentWebhooks()`); the demo plugs a real one.
   */
  readonly webhookTransport?: WebhookTransport;
  /** Screens every create and resubmit (run the jobs with `testing.screenDueClients`); off without one. */
  readonly screening?: ScreeningProvider;
  /**
   * How long a transaction may run before it is abandoned and resolves to `StorageUnavailable`,
   * its writes dropped and the lock passed on (default 30 s; the kit's own transactions take
   * microseconds). It bounds work that waits for the lock its own transaction holds (a write
   * through an outer store, a nested transaction) or never settles.
   */
  readonly transactionTimeoutMs?: number;
};

/** What a host's unit tests read and plant directly, without HTTP. */
export type MemoryTestingHelpers = {
  /** Puts a file in an owner's temporary area (owner = core's `principalKey`, e.g. `manager:<id>`). */
  putTemporaryFile(owner: string, filename: string, bytes: Uint8Array): void;
  readTemporaryFile(owner: string, filename: string): Uint8Array | null;
  /** The bytes of a permanent document, or null. */
  readDocument(key: string): Uint8Array | null;
  listTemporaryOwners(): string[];
  /**
   * Every committed row, index and stored file (bytes as latin1 text) as one JSON text: what a
   * test searches for data that must be gone (a dump of the store).
   */
  dump(): string;
  /** Removes the temporary files older than their lifetime, now; resolves to how many. */
  purgeExpiredTemporaryFiles(): number;
  listDocumentKeys(): string[];
  /** Committed state only, as a concurrent reader would see it. */
  readClient(clientId: string): StoredClient | null;
  readStatusHistory(clientId: string): StatusHistoryEntry[];
  readDocumentRecord(key: string): DocumentRecord | null;
  /** A command's claim on an upload (`DocumentIndex.claimUploads`), expired or not. */
  readUploadClaim(upload: string): { holder: string; expiresAt: Date } | null;
  /** A client's committed audit entries, in the order they were appended. */
  readAuditEntries(clientId: string): AuditEntry[];
  /**
   * Rewrites a committed audit entry behind the log's back, as anyone with write access to a store
   * could (its chain link stays as it was); `null` removes it. For tests of the chain's verification.
   */
  forgeAuditEntry(entryId: string, forged: Partial<AuditEntry> | null): Promise<void>;
  readIdempotencyRecord(
    scope: string,
    key: string,
  ): { fingerprint: string; outcome: RecordedOutcome | null; claimedAt: Date } | null;
  readPresetFee(presetFeeId: string): { managerId: string; fee: PresetFee } | null;
  /** The stored API key digests and their principals. */
  listApiKeyDigests(): Array<{ keyHash: string; principal: Principal }>;
  /**
   * Runs every webhook job due at the clock's now (and what those make due now) through `kit`,
   * with no timer: advance a controllable clock, then call it, then assert what was sent. One job at
   * a time unless `concurrency` says otherwise (the demo's runner).
   */
  deliverDueWebhooks(
    kit: Pick<OnboardingKit, 'webhooks'>,
    options?: WebhookRoundOptions,
  ): Promise<WebhookDeliveryRound>;
  /**
   * Runs every screening job due at the clock's now through `kit` (no timer); a failed one is put
   * back after its back-off. Advance a controllable clock past it to run the retry.
   */
  screenDueClients(
    kit: Pick<OnboardingKit, 'screening'>,
    options?: ScreeningRoundOptions,
  ): Promise<ScreeningRound>;
  /** The queued screening jobs, soonest first (`clientId` for a client's screening). */
  listScreeningJobs(): Array<{ job: ScreeningJob; clientId?: string; attempts: number; runAt: Date }>;
  /** The names the monitoring index holds for a client (`screeningNameKeys` keys with each). */
  readScreenedNames(clientId: string): IndexedScreeningName[];
  /** How many monitoring jobs a list version was given (0: the version was never enqueued). */
  countListChangeJobs(version: string): number;
  /** The queued webhook jobs, soonest first, with when each is due. */
  listWebhookJobs(): Array<{ job: WebhookJob; runAt: Date }>;
  /** What the default recording transport was asked to send, oldest first (empty with another transport). */
  sentWebhooks(): WebhookRequest[];
  /** How the default recording transport answers from now on (default: 200). */
  answerWebhooksWith(answer: WebhookAnswer | ((request: WebhookRequest) => WebhookAnswer)): void;
};

export type MemoryAdapters = OnboardingKitPorts & {
  /** The clock every memory store reads (the system clock unless one was given). */
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The endpoint the express storage router serves `PUT /uploads/:token` and `GET /downloads/:token` over. */
  readonly signedLinks: MemorySignedLinks;
  readonly testing: MemoryTestingHelpers;
};

/** The longest delay a Node timer keeps (2^31 - 1 ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** Every port of the kit in memory, sharing one state: for host unit tests and the demo. */
export const createMemoryAdapters = (options: MemoryAdaptersOptions = {}): MemoryAdapters => {
  const transactionTimeoutMs = options.transactionTimeoutMs ?? 30_000;
  if (
    !Number.isInteger(transactionTimeoutMs) ||
    transactionTimeoutMs < 1 ||
    transactionTimeoutMs > MAX_TIMER_MS
  ) {
    throw new RangeError(
      `transactionTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, not ${transactionTimeoutMs}`,
    );
  }
  const clock = options.clock ?? systemClock;
  const database = createMemoryDatabase(transactionTimeoutMs);
  const access = database.committedAccess;
  const committed = database.committed;
  const presetFees = new Map<string, OwnedPresetFee>();
  const apiKeys = new Map<string, Principal>();
  const secret = options.signingSecret ?? randomBytes(32);
  const files = createMemoryDocumentStorage({
    clock,
    signingSecret: typeof secret === 'string' ? new TextEncoder().encode(secret) : new Uint8Array(secret),
    publicBaseUrl: options.publicBaseUrl ?? 'http://localhost:3000/storage',
    maxUploadBytes: options.maxUploadBytes ?? 25 * 1024 * 1024 + 1024,
    temporaryFileTtlMs: options.temporaryFileTtlMs ?? 24 * 60 * 60_000,
    maxTemporaryFilesPerOwner: options.maxTemporaryFilesPerOwner ?? 100,
    maxTemporaryBytesPerOwner: options.maxTemporaryBytesPerOwner ?? 256 * 1024 * 1024,
  });
  const recordingTransport = createRecordingWebhookTransport();
  const copy = <T>(value: T | undefined): T | null => structuredClone(value ?? null);

  const testing: MemoryTestingHelpers = {
    putTemporaryFile: (owner, filename, bytes) => files.putTemporary(owner, filename, bytes),
    readTemporaryFile: (owner, filename) => copy(files.temporary.get(owner)?.get(filename)?.bytes),
    readDocument: (key) => copy(files.permanent.get(key)?.bytes),
    listTemporaryOwners: () => [...files.temporary.keys()],
    dump: () =>
      JSON.stringify(
        {
          tables: database.dump(),
          temporary: files.temporary,
          permanent: files.permanent,
          apiKeys,
          presetFees,
        },
        (_name, value: unknown) => {
          if (value instanceof Map) return [...value];
          if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
          return value;
        },
      ),
    purgeExpiredTemporaryFiles: () => files.purgeExpired(),
    listDocumentKeys: () => [...files.permanent.keys()],
    readClient: (clientId) => copy(committed.clients.get(clientId)),
    readStatusHistory: (clientId) => structuredClone([...(committed.statusHistory.get(clientId) ?? [])]),
    readDocumentRecord: (key) => copy(committed.documents.get(key)),
    readUploadClaim: (upload) => {
      const claim = committed.uploadClaims.get(upload);
      return claim === undefined ? null : { holder: claim.holder, expiresAt: new Date(claim.expiresAt) };
    },
    readAuditEntries: (clientId) =>
      structuredClone(
        [...committed.auditEntries.values()].flatMap(({ entry }) =>
          entry.clientId === clientId ? [entry] : [],
        ),
      ),
    forgeAuditEntry: async (entryId, forged) => {
      const written = await access.write((tables) => {
        const row = tables.auditEntries.get(entryId);
        if (row === undefined) return err(new Error(`No audit entry ${entryId}`));
        if (forged === null) tables.auditEntries.delete(entryId);
        else tables.auditEntries.set(entryId, { ...row, entry: { ...row.entry, ...forged } });
        return ok(undefined);
      });
      if (written.isErr()) throw written.error;
    },
    readIdempotencyRecord: (scope, key) => {
      const record = committed.idempotency.get(idempotencyRecordId(scope, key));
      return record === undefined
        ? null
        : {
            fingerprint: record.fingerprint,
            outcome: copy(record.outcome),
            claimedAt: new Date(record.claimedAt),
          };
    },
    readPresetFee: (presetFeeId) => copy(presetFees.get(presetFeeId)),
    listApiKeyDigests: () =>
      [...apiKeys].map(([keyHash, principal]) => ({ keyHash, principal: structuredClone(principal) })),
    deliverDueWebhooks: (kit, options) =>
      runDueWebhookJobs(
        kit,
        () => takeDueWebhookJobs(access, clock.now()),
        async (job, delayMs) => {
          await enqueueWebhookJob(access, job, new Date(clock.now().getTime() + delayMs));
        },
        options,
      ),
    listWebhookJobs: () =>
      [...committed.webhookJobs.values()]
        .sort(dueOrder)
        .map(({ job, runAt }) => ({ job: structuredClone(job), runAt: new Date(runAt) })),
    screenDueClients: (kit, options) => runDueScreeningJobs(kit, access, clock, options),
    listScreeningJobs: () =>
      queuedScreeningJobs(committed).map(({ job, attempts, runAt }) => ({
        job: structuredClone(job),
        ...(job.type === 'screen-client' ? { clientId: job.clientId } : {}),
        attempts,
        runAt: new Date(runAt),
      })),
    countListChangeJobs: (version) => committed.screeningListVersions.get(version) ?? 0,
    readScreenedNames: (clientId) =>
      structuredClone([...(committed.screenedNames.get(clientId)?.names ?? [])]),
    sentWebhooks: () => [...recordingTransport.sent],
    answerWebhooksWith: (answer) => recordingTransport.answerWith(answer),
  };

  return {
    clients: createMemoryClientRepository(access),
    documentIndex: createMemoryDocumentIndex(access),
    documentStorage: files.storage,
    presetFees: createMemoryPresetFeeRepository(presetFees),
    idempotency: createMemoryIdempotencyStore(access),
    events: createMemoryEventLog(access),
    audit: createMemoryAuditLog(access),
    webhookEndpoints: createMemoryWebhookEndpointStore(access),
    webhookDeliveries: createMemoryWebhookDeliveryStore(access),
    screenedNames: createMemoryScreenedNameIndex(access),
    webhookTransport: options.webhookTransport ?? recordingTransport,
    apiKeys: createMemoryApiKeyStore(apiKeys),
    unitOfWork: createMemoryUnitOfWork(database, clock),
    clock,
    ids: options.ids ?? createRandomIds(),
    ...(options.screening === undefined ? {} : { screening: options.screening }),
    signedLinks: files.signedLinks,
    testing,
  };
};
