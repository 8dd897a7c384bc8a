import { match, P } from 'ts-pattern';
import type { ClientStatus, ClientType } from './schemas/client-response.js';

/**
 * Every expected failure of the kit is a plain tagged object. Core never knows HTTP: the express
 * package maps each `type` to a status and body exactly once, exhaustively.
 */

/** JSON path of a request field (`profile.email`, `bankAccounts[0].identifiers.iban`) → messages. */
export type ParameterErrors = Record<string, string[]>;

export type ValidationFailed = {
  readonly type: 'ValidationFailed';
  readonly reason: string;
  readonly parameterErrors: ParameterErrors | null;
};
export type Unauthorized = { readonly type: 'Unauthorized'; readonly reason: string };
export type Forbidden = { readonly type: 'Forbidden'; readonly reason: string };
export type ClientNotFound = { readonly type: 'ClientNotFound'; readonly clientId: string };
export type PresetFeeNotFound = { readonly type: 'PresetFeeNotFound'; readonly presetFeeId: string };
export type DocumentNotFound = { readonly type: 'DocumentNotFound'; readonly keys: readonly string[] };
export type InvalidStatus = {
  readonly type: 'InvalidStatus';
  readonly clientId: string;
  readonly currentStatus: ClientStatus;
  readonly trigger: string;
};
export type ClientTypeMismatch = {
  readonly type: 'ClientTypeMismatch';
  readonly clientId: string;
  readonly clientType: ClientType;
  readonly expected: ClientType;
};
export type IdempotencyRequestInProgress = { readonly type: 'IdempotencyRequestInProgress' };
export type IdempotencyKeyReused = { readonly type: 'IdempotencyKeyReused' };
/** The caller holds `limit` live idempotency records: a new key is refused until one expires. */
export type IdempotencyQuotaExceeded = {
  readonly type: 'IdempotencyQuotaExceeded';
  readonly limit: number;
  readonly retryAfterSeconds: number;
};
/**
 * The owner's temporary area holds as many files (or bytes) as one owner may: uploads not yet used
 * or expired, and upload links still valid. A new upload link is refused until some are used or expire.
 */
export type TemporaryStorageFull = {
  readonly type: 'TemporaryStorageFull';
  readonly maxFiles: number;
  readonly maxBytes: number;
  /** When the first of what counts stops counting (a link or an upload expires), at least 1. */
  readonly retryAfterSeconds: number;
};
export const temporaryStorageFull = (
  maxFiles: number,
  maxBytes: number,
  retryAfterMs: number,
): TemporaryStorageFull => ({
  type: 'TemporaryStorageFull',
  maxFiles,
  maxBytes,
  retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
});
/** A presigned link of the in-memory storage that is expired, tampered with or of the wrong kind. */
export type SignedLinkRejected = {
  readonly type: 'SignedLinkRejected';
  /** `quota-exceeded`: the owner's temporary area is full (files or bytes). */
  readonly reason: 'expired' | 'invalid' | 'too-large' | 'quota-exceeded';
};
/** The holder's token no longer matches: its lock expired and another request took the key over. */
export type IdempotencyLockLost = {
  readonly type: 'IdempotencyLockLost';
  readonly scope: string;
  readonly key: string;
};

export type StorageUnavailable = {
  readonly type: 'StorageUnavailable';
  readonly store: string;
  readonly cause: unknown;
};

/**
 * The store lost the connection while committing: the transaction may or may not have been kept.
 * Nothing that the commit would have made referenced (copied documents) may be removed on it: a
 * retry with the same Idempotency-Key replays the outcome if it was kept, and runs anew if not (the
 * copies of a commit that was not kept are removed by the orphan sweep).
 */
export type CommitOutcomeUnknown = {
  readonly type: 'CommitOutcomeUnknown';
  readonly store: string;
  readonly cause: unknown;
};

/**
 * A preset fee with this id already exists (whichever manager holds it). Only the host's write side
 * (`kit.presetFees.add`, `PresetFeeRepository.insert`) meets it, so it is not an HTTP answer.
 */
export type PresetFeeIdTaken = { readonly type: 'PresetFeeIdTaken'; readonly presetFeeId: string };
export const presetFeeIdTaken = (presetFeeId: string): PresetFeeIdTaken => ({
  type: 'PresetFeeIdTaken',
  presetFeeId,
});

/**
 * Temporary files that were removed or uploaded again between their check and their copy. Only
 * `DocumentStorage.copyToPermanent` answers it; the promotion turns it into a 400 at the fields.
 */
export type TemporaryFilesChanged = {
  readonly type: 'TemporaryFilesChanged';
  readonly filenames: readonly string[];
};
export const temporaryFilesChanged = (filenames: readonly string[]): TemporaryFilesChanged => ({
  type: 'TemporaryFilesChanged',
  filenames,
});

/** A webhook endpoint the manager does not have (another manager's answers the same). */
export type WebhookEndpointNotFound = {
  readonly type: 'WebhookEndpointNotFound';
  readonly endpointId: string;
};
export const webhookEndpointNotFound = (endpointId: string): WebhookEndpointNotFound => ({
  type: 'WebhookEndpointNotFound',
  endpointId,
});
export type WebhookDeliveryNotFound = {
  readonly type: 'WebhookDeliveryNotFound';
  readonly deliveryId: string;
};
export const webhookDeliveryNotFound = (deliveryId: string): WebhookDeliveryNotFound => ({
  type: 'WebhookDeliveryNotFound',
  deliveryId,
});
/** A manager already has as many webhook endpoints as the kit allows. */
export type WebhookEndpointLimitReached = {
  readonly type: 'WebhookEndpointLimitReached';
  readonly limit: number;
};
export const webhookEndpointLimitReached = (limit: number): WebhookEndpointLimitReached => ({
  type: 'WebhookEndpointLimitReached',
  limit,
});

/**
 * A move towards VERIFIED (approval, or the signed terms) refused: the client's screening is not
 * done, failed, or has a hit not dismissed. `trigger` is absent in answers recorded before it existed.
 */
export type ScreeningUnresolved = {
  readonly type: 'ScreeningUnresolved';
  readonly clientId: string;
  /** `NONE`: never screened (a client stored before the kit had a screening provider). */
  readonly screeningStatus: 'PENDING' | 'CLEAR' | 'POSSIBLE_MATCH' | 'ERROR' | 'NONE';
  readonly trigger?: 'APPROVE' | 'SIGN_TERMS';
};
export const screeningUnresolved = (
  clientId: string,
  screeningStatus: ScreeningUnresolved['screeningStatus'],
  trigger: 'APPROVE' | 'SIGN_TERMS',
): ScreeningUnresolved => ({ type: 'ScreeningUnresolved', clientId, screeningStatus, trigger });
export type ScreeningHitNotFound = {
  readonly type: 'ScreeningHitNotFound';
  readonly clientId: string;
  readonly hitId: string;
};
export const screeningHitNotFound = (clientId: string, hitId: string): ScreeningHitNotFound => ({
  type: 'ScreeningHitNotFound',
  clientId,
  hitId,
});

/**
 * The caller decided on a version of the client (`clientVersion`) that it no longer has: it changed
 * after the caller read it (a resubmission, another reviewer's move, a screening result). Checked
 * on the client as locked in the command's transaction; nothing is written.
 */
export type ClientChanged = { readonly type: 'ClientChanged'; readonly clientId: string };
export const clientChanged = (clientId: string): ClientChanged => ({ type: 'ClientChanged', clientId });

export type DomainError =
  | ValidationFailed
  | Unauthorized
  | Forbidden
  | ClientNotFound
  | PresetFeeNotFound
  | DocumentNotFound
  | InvalidStatus
  | ClientTypeMismatch
  | IdempotencyRequestInProgress
  | IdempotencyKeyReused
  | IdempotencyQuotaExceeded
  | TemporaryStorageFull
  | SignedLinkRejected
  | WebhookEndpointNotFound
  | WebhookDeliveryNotFound
  | WebhookEndpointLimitReached
  | ScreeningUnresolved
  | ScreeningHitNotFound
  | ClientChanged
  | StorageUnavailable
  | CommitOutcomeUnknown;

export type DomainErrorType = DomainError['type'];

/**
 * The refusals decided once a command ran against stored state (the client is not there, or not in
 * a status that allows the move): an idempotent command records them and replays them, like a
 * success. Any other failure (invalid input, an outage) is not recorded: a corrected retry runs anew.
 */
export type RecordableRefusal =
  | ClientNotFound
  | DocumentNotFound
  | PresetFeeNotFound
  | InvalidStatus
  | ClientTypeMismatch
  | WebhookEndpointNotFound
  | WebhookDeliveryNotFound
  | ScreeningUnresolved
  | ScreeningHitNotFound;
/**
 * Exhaustive on purpose: a new error type does not compile until it is classified here, so none can
 * silently release (or keep) an idempotency claim.
 */
export const isRecordableRefusal = (error: DomainError): error is RecordableRefusal =>
  match(error)
    .with(
      {
        type: P.union(
          'ClientNotFound',
          'DocumentNotFound',
          'PresetFeeNotFound',
          'InvalidStatus',
          'ClientTypeMismatch',
          'WebhookEndpointNotFound',
          'WebhookDeliveryNotFound',
          'ScreeningUnresolved',
          'ScreeningHitNotFound',
        ),
      },
      // Typed: what this branch takes must be a RecordableRefusal.
      (_refusal: RecordableRefusal) => true,
    )
    .with(
      {
        type: P.union(
          'ValidationFailed',
          'Unauthorized',
          'Forbidden',
          'IdempotencyRequestInProgress',
          'IdempotencyKeyReused',
          'IdempotencyQuotaExceeded',
          // Decided by what the owner holds now: a retry once uploads are used or expire runs anew.
          'TemporaryStorageFull',
          'SignedLinkRejected',
          'WebhookEndpointLimitReached',
          // Nothing ran: a retry with the version the caller now sees runs anew under the same key.
          'ClientChanged',
          'StorageUnavailable',
          'CommitOutcomeUnknown',
        ),
      },
      () => false,
    )
    .exhaustive();

export const validationFailed = (
  reason: string,
  parameterErrors: ParameterErrors | null = null,
): ValidationFailed => ({ type: 'ValidationFailed', reason, parameterErrors });
export const unauthorized = (reason = 'A valid SERVICE_API_KEY header is required'): Unauthorized => ({
  type: 'Unauthorized',
  reason,
});
export const forbidden = (reason: string): Forbidden => ({ type: 'Forbidden', reason });
export const clientNotFound = (clientId: string): ClientNotFound => ({ type: 'ClientNotFound', clientId });
export const presetFeeNotFound = (presetFeeId: string): PresetFeeNotFound => ({
  type: 'PresetFeeNotFound',
  presetFeeId,
});
export const documentNotFound = (keys: readonly string[]): DocumentNotFound => ({
  type: 'DocumentNotFound',
  keys,
});
export const invalidStatus = (
  clientId: string,
  currentStatus: ClientStatus,
  trigger: string,
): InvalidStatus => ({
  type: 'InvalidStatus',
  clientId,
  currentStatus,
  trigger,
});
export const clientTypeMismatch = (
  clientId: string,
  clientType: ClientType,
  expected: ClientType,
): ClientTypeMismatch => ({ type: 'ClientTypeMismatch', clientId, clientType, expected });
export const idempotencyRequestInProgress = (): IdempotencyRequestInProgress => ({
  type: 'IdempotencyRequestInProgress',
});
export const idempotencyKeyReused = (): IdempotencyKeyReused => ({ type: 'IdempotencyKeyReused' });
export const idempotencyQuotaExceeded = (
  limit: number,
  retryAfterSeconds: number,
): IdempotencyQuotaExceeded => ({ type: 'IdempotencyQuotaExceeded', limit, retryAfterSeconds });
export const signedLinkRejected = (reason: SignedLinkRejected['reason']): SignedLinkRejected => ({
  type: 'SignedLinkRejected',
  reason,
});
export const commitOutcomeUnknown =
  (store: string) =>
  (cause: unknown): CommitOutcomeUnknown => ({ type: 'CommitOutcomeUnknown', store, cause });
/** Adapters wrap every driver call with `ResultAsync.fromPromise(p, storageUnavailable('postgres'))`. */
export const storageUnavailable =
  (store: string) =>
  (cause: unknown): StorageUnavailable => ({ type: 'StorageUnavailable', store, cause });
/**
 * The one meaning of a lost idempotency lock (the store's `complete` or `renew`, or a unit of work
 * whose commit carried a completion): another request took the key over, so to this caller the
 * request is in progress (409, retry). A transaction that completes no claim never ends so.
 */
export const lockLostAsInProgress = <E extends { readonly type: string }>(
  error: E | IdempotencyLockLost,
): E | IdempotencyRequestInProgress =>
  error.type === 'IdempotencyLockLost' ? idempotencyRequestInProgress() : (error as E);
