import type { ReferenceLists } from './validation/reference-lists.js';

/** What a host may tune when it wires the kit (`createOnboardingKit({ options })`). */
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
   * How long a running request's lock is renewed at most (default 5 minutes, at least the lock TTL).
   * A handler still running then stops renewing: its lock expires one TTL later and a retry takes it
   * over (its own completion is then refused), so a handler that never answers never holds a key.
   */
  readonly idempotencyLockMaxRenewalMs?: number;
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
   * (`kit.apiKeys.revoke`, `kit.apiKeys.register`) is refused or re-pointed at once; one revoked elsewhere
   * (another process, the table edited by hand) keeps working here for up to this long.
   */
  readonly apiKeyCacheTtlMs?: number;
  /** Keys `authenticate` keeps at most (default 10,000; the oldest goes first). */
  readonly apiKeyCacheMaxEntries?: number;
  /**
   * Days after its deletion when the retention job redacts a client (decisions §11). Default 1825
   * (five years: AML record keeping after the business relationship ends).
   */
  readonly retentionAfterDeletionDays?: number;
};

export type ResolvedOnboardingKitOptions = Required<Omit<OnboardingKitOptions, 'referenceLists'>> & {
  readonly referenceLists: ReferenceLists;
};
