import {
  type AuditEntry,
  type Clock,
  createRecordingWebhookTransport,
  type OnboardingKit,
  type OnboardingKitPorts,
  type RecordingWebhookTransport,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import type {
  IdGenerator,
  AuditChainLink as Link,
  ScreeningProvider,
  WebhookAnswer,
  WebhookRequest,
  WebhookTransport,
} from '@onboarding-kit/core/adapter';
import { err, ok } from 'neverthrow';
import { createMemoryApiKeyStore } from './memory-api-key-store.js';
import { createMemoryAuditLog } from './memory-audit-log.js';
import { createMemoryClientRepository } from './memory-client-repository.js';
import {
  createMemoryDatabase,
  dueOrder,
  idempotencyRecordId,
  type MemoryDatabase,
  type TableAccess,
} from './memory-database.js';
import { createMemoryDocumentIndex } from './memory-document-index.js';
import {
  createMemoryDocumentStorage,
  type MemoryDocumentStorage,
  type MemoryDocumentStorageOptions,
} from './memory-document-storage.js';
import { createMemoryEventLog } from './memory-event-log.js';
import { createMemoryIdempotencyStore } from './memory-idempotency-store.js';
import { createMemoryPresetFeeRepository } from './memory-preset-fee-repository.js';
import { createMemoryScreenedNameIndex } from './memory-screened-name-index.js';
import {
  createMemoryScreeningJobQueue,
  queuedScreeningJobs,
  runDueScreeningJobs,
  type ScreeningRoundOptions,
} from './memory-screening-job-queue.js';
import { createMemoryWebhookDeliveryStore } from './memory-webhook-delivery-store.js';
import { createMemoryWebhookEndpointStore } from './memory-webhook-endpoint-store.js';
import {
  createMemoryWebhookJobQueue,
  runDueWebhookJobs,
  type WebhookRoundOptions,
} from './memory-webhook-job-queue.js';
import { nodeTextHashing } from './node-text-hashing.js';

export type MemoryAdaptersOptions = MemoryDocumentStorageOptions & {
  /** Default: the system clock. Pass `createControllableClock()` to expire links and files at will. */
  readonly clock?: Clock;
  /** Default: random UUID v4. */
  readonly ids?: IdGenerator;
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

export type MemoryAdapters = OnboardingKitPorts & {
  /** The clock every memory store reads (the system clock unless one was given). */
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The endpoint the express storage router serves `PUT /uploads/:token` and `GET /downloads/:token` over. */
  readonly signedLinks: MemoryDocumentStorage['signedLinks'];
  /** What a host's unit tests read and plant directly, without HTTP: committed state only. */
  readonly testing: ReturnType<typeof testingHelpers>;
};

/** Every store over `access`: the committed tables, or a transaction's own. */
const memoryStores = (access: TableAccess, clock: Clock) => ({
  clients: createMemoryClientRepository(access),
  documents: createMemoryDocumentIndex(access),
  idempotency: createMemoryIdempotencyStore(access),
  events: createMemoryEventLog(access),
  audit: createMemoryAuditLog(access),
  webhookEndpoints: createMemoryWebhookEndpointStore(access),
  webhookDeliveries: createMemoryWebhookDeliveryStore(access),
  webhookJobs: createMemoryWebhookJobQueue(access, clock),
  screeningJobs: createMemoryScreeningJobQueue(access, clock),
  screenedNames: createMemoryScreenedNameIndex(access),
  apiKeys: createMemoryApiKeyStore(access),
  presetFees: createMemoryPresetFeeRepository(access),
});

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
  const files = createMemoryDocumentStorage(clock, options);
  const transport = createRecordingWebhookTransport();
  const { documents, webhookJobs, screeningJobs, ...stores } = memoryStores(database.committedAccess, clock);
  return {
    ...stores,
    documentIndex: documents,
    documentStorage: files.storage,
    webhookTransport: options.webhookTransport ?? transport,
    unitOfWork: {
      transaction: (work) => database.transaction((access) => work(memoryStores(access, clock))),
    },
    // Node's own SHA-256: the same digests as core's portable default, a few times faster.
    hashing: nodeTextHashing,
    clock,
    ids: options.ids ?? randomUuids,
    ...(options.screening === undefined ? {} : { screening: options.screening }),
    signedLinks: files.signedLinks,
    testing: testingHelpers(database, files, clock, transport),
  };
};

const copy = <T>(value: T | undefined): T | null => structuredClone(value ?? null);

const testingHelpers = (
  { committed, committedAccess: access, dump }: MemoryDatabase,
  files: MemoryDocumentStorage,
  clock: Clock,
  transport: RecordingWebhookTransport,
) => ({
  /** Puts a file in an owner's temporary area (owner = core's `principalKey`, e.g. `manager:<id>`). */
  putTemporaryFile: (owner: string, filename: string, bytes: Uint8Array): void =>
    files.putTemporary(owner, filename, bytes),
  readTemporaryFile: (owner: string, filename: string) =>
    copy(files.temporary.get(owner)?.get(filename)?.bytes),
  /** The bytes of a permanent document, or null. */
  readDocument: (key: string) => copy(files.permanent.get(key)?.bytes),
  listTemporaryOwners: () => [...files.temporary.keys()],
  /**
   * Every committed row, index and stored file (bytes as latin1 text) as one JSON text: what a
   * test searches for data that must be gone (a dump of the store).
   */
  dump: () =>
    JSON.stringify(
      { tables: dump(), temporary: files.temporary, permanent: files.permanent },
      (_name, value: unknown) => {
        if (value instanceof Map) return [...value];
        if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
        return value;
      },
    ),
  /** Removes the temporary files older than their lifetime, now; answers how many. */
  purgeExpiredTemporaryFiles: () => files.purgeExpired(),
  listDocumentKeys: () => [...files.permanent.keys()],
  readClient: (clientId: string) => copy(committed.clients.get(clientId)),
  readStatusHistory: (clientId: string) =>
    structuredClone([...(committed.statusHistory.get(clientId) ?? [])]),
  readDocumentRecord: (key: string) => copy(committed.documents.get(key)),
  /** A command's claim on an upload (`DocumentIndex.claimUploads`), expired or not. */
  readUploadClaim: (upload: string) => {
    const claim = committed.uploadClaims.get(upload);
    return claim === undefined ? null : { holder: claim.holder, expiresAt: new Date(claim.expiresAt) };
  },
  /** A client's committed audit entries, in the order they were appended. */
  readAuditEntries: (clientId: string) =>
    structuredClone(
      [...committed.auditEntries.values()].flatMap(({ entry }) =>
        entry.clientId === clientId ? [entry] : [],
      ),
    ),
  /**
   * Rewrites a committed audit entry behind the log's back, as anyone with write access to a store
   * could (its chain link stays as it was but for `link`); `null` removes it. For tests of the chain.
   */
  forgeAuditEntry: async (entryId: string, forged: Partial<AuditEntry> | null, link?: Partial<Link>) => {
    const written = await access.write((tables) => {
      const row = tables.auditEntries.get(entryId);
      if (row === undefined) return err(new Error(`No audit entry ${entryId}`));
      if (forged === null) tables.auditEntries.delete(entryId);
      else
        tables.auditEntries.set(entryId, {
          ...row,
          entry: { ...row.entry, ...forged },
          link: { ...row.link, ...link },
        });
      return ok(undefined);
    });
    if (written.isErr()) throw written.error;
  },
  readIdempotencyRecord: (scope: string, key: string) => {
    const record = committed.idempotency.get(idempotencyRecordId(scope, key));
    return record === undefined
      ? null
      : {
          fingerprint: record.fingerprint,
          outcome: copy(record.outcome),
          claimedAt: new Date(record.claimedAt),
        };
  },
  readPresetFee: (presetFeeId: string) => copy(committed.presetFees.get(presetFeeId)),
  /** The stored API key digests and their principals. */
  listApiKeyDigests: () =>
    [...dump().apiKeys].map(([keyHash, principal]) => ({ keyHash, principal: structuredClone(principal) })),
  /**
   * Runs every webhook job due at the clock's now (and what those make due now) through `kit`,
   * with no timer: advance a controllable clock, then call it, then assert what was sent. One job at
   * a time unless `concurrency` says otherwise (the demo's job loop).
   */
  deliverDueWebhooks: (kit: Pick<OnboardingKit, 'webhooks'>, options?: WebhookRoundOptions) =>
    runDueWebhookJobs(kit, access, clock, options),
  /** The queued webhook jobs, soonest first, with when each is due. */
  listWebhookJobs: () =>
    [...committed.webhookJobs.values()]
      .sort(dueOrder)
      .map(({ job, runAt }) => ({ job: structuredClone(job), runAt: new Date(runAt) })),
  /**
   * Runs every screening job due at the clock's now through `kit` (no timer); a failed one is put
   * back after its back-off. Advance a controllable clock past it to run the retry.
   */
  screenDueClients: (kit: Pick<OnboardingKit, 'screening'>, options?: ScreeningRoundOptions) =>
    runDueScreeningJobs(kit, access, clock, options),
  /** The queued screening jobs, soonest first (`clientId` for a client's screening). */
  listScreeningJobs: () =>
    queuedScreeningJobs(committed).map(({ job, attempts, runAt }) => ({
      job: structuredClone(job),
      ...(job.type === 'screen-client' ? { clientId: job.clientId } : {}),
      attempts,
      runAt: new Date(runAt),
    })),
  /** How many monitoring jobs a list version was given (0: the version was never enqueued). */
  countListChangeJobs: (version: string) => committed.screeningListVersions.get(version) ?? 0,
  /** The names the monitoring index holds for a client (`screeningNameKeys` keys with each). */
  readScreenedNames: (clientId: string) =>
    structuredClone([...(committed.screenedNames.get(clientId)?.names ?? [])]),
  /** What the default recording transport was asked to send, oldest first (empty with another transport). */
  sentWebhooks: () => [...transport.sent],
  /** How the default recording transport answers from now on (default: 200). */
  answerWebhooksWith: (answer: WebhookAnswer | ((request: WebhookRequest) => WebhookAnswer)): void =>
    transport.answerWith(answer),
});
