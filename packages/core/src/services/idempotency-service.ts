import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import {
  type DomainError,
  idempotencyKeyReused,
  idempotencyQuotaExceeded,
  idempotencyRequestInProgress,
  lockLostAsInProgress,
  type ValidationFailed,
  validationFailed,
} from '../errors.js';
import { type KitContext, portableTextHashing } from '../kit-context.js';
import type { IdempotencyClaimRef, RecordedOutcome } from '../ports/idempotency-store.js';
import type { TextHashing } from '../ports/text-hashing.js';

// Idempotency (decisions §5): the key's rule, the fingerprint of a request, and the service that
// claims, completes and replays keyed requests on the IdempotencyStore.

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
  /** How long a running request's lock is renewed at most (option `idempotencyLockMaxRenewalMs`). */
  readonly maxLockRenewalMs: number;
  /** Deletes expired records in batches; resolves to how many were deleted. */
  purgeExpired(batchSize?: number): ResultAsync<number, DomainError>;
}

const DEFAULT_PURGE_BATCH_SIZE = 500;

/** Decisions §5 on top of the IdempotencyStore port. */
export const createIdempotencyService = ({ ports, options, hashing }: KitContext): IdempotencyService => ({
  claim: ({ scope, key, owner, body }) => {
    const fingerprint = fingerprintRequestBody(body, hashing);
    // A body without a fingerprint is refused before anything is stored under the key.
    if (fingerprint.isErr()) return errAsync(fingerprint.error);
    const ref = { scope, key, token: ports.ids.uuid() };
    const limit = options.idempotencyMaxRecordsPerOwner;
    return ports.idempotency
      .claim({
        ...ref,
        owner,
        maxLiveRecordsPerOwner: limit,
        fingerprint: fingerprint.value,
        now: ports.clock.now(),
        lockTtlMs: options.idempotencyLockTtlMs,
        recordTtlMs: options.idempotencyRecordTtlMs,
      })
      .andThen((claim): Result<IdempotencyDecision, DomainError> => {
        // A switch, not ts-pattern's match: every keyed request passes here, and a match builds
        // its matcher objects at each call.
        switch (claim.type) {
          case 'Claimed':
            return ok({ type: 'Claimed', ref });
          case 'Replay':
            return ok({ type: 'Replay', outcome: claim.outcome });
          case 'InProgress':
            return err(idempotencyRequestInProgress());
          case 'KeyReused':
            return err(idempotencyKeyReused());
          case 'QuotaExceeded':
            return err(
              idempotencyQuotaExceeded(limit ?? 0, Math.max(1, Math.ceil(claim.retryAfterMs / 1000))),
            );
        }
      });
  },
  complete: (ref, outcome) =>
    ports.idempotency.complete(ref, outcome, ports.clock.now()).mapErr(lockLostAsInProgress),
  release: (ref) => ports.idempotency.release(ref),
  renew: (ref) => ports.idempotency.renew(ref, ports.clock.now()).mapErr(lockLostAsInProgress),
  lockRenewalIntervalMs: Math.max(1, Math.floor(options.idempotencyLockTtlMs / 3)),
  maxLockRenewalMs: options.idempotencyLockMaxRenewalMs,
  purgeExpired: (batchSize = DEFAULT_PURGE_BATCH_SIZE) =>
    ports.idempotency.purgeExpired(
      new Date(ports.clock.now().getTime() - options.idempotencyRecordTtlMs),
      batchSize,
    ),
});

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const visibleAscii = /^[\x21-\x7e]+$/;

// `parameterErrors` names request-body paths only; a header problem is told in `reason`.
const refuse = (message: string): Result<never, ValidationFailed> =>
  err(validationFailed(`Invalid Idempotency-Key header: ${message}`, null));

/** Unquotes an RFC 8941 sf-string (`"abc"`, with `\"` and `\\` escapes), or null when it is not one. */
const unquoteStructuredFieldString = (value: string): string | null => {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return null;
  let out = '';
  for (let i = 1; i < value.length - 1; i += 1) {
    const char = value.charAt(i);
    if (char === '\\') {
      const next = value.charAt(i + 1);
      if ((next !== '"' && next !== '\\') || i + 1 >= value.length - 1) return null;
      out += next;
      i += 1;
    } else if (char === '"') {
      return null;
    } else {
      out += char;
    }
  }
  return out;
};

/**
 * Reads the `Idempotency-Key` header (decisions §5): absent → null (the request runs normally);
 * otherwise 1..255 visible ASCII characters, optionally as a quoted structured-field string.
 * Empty, longer, or several values (a comma, a repeated header) are refused.
 */
export const parseIdempotencyKey = (
  header: string | readonly string[] | undefined,
): Result<string | null, ValidationFailed> => {
  if (header === undefined) return ok(null);
  if (typeof header !== 'string') {
    if (header.length !== 1) return refuse('send exactly one Idempotency-Key header');
    return parseIdempotencyKey(header[0]);
  }
  const trimmed = header.trim();
  if (trimmed === '') return refuse('must not be empty');
  const unquoted = trimmed.startsWith('"') ? unquoteStructuredFieldString(trimmed) : trimmed;
  if (unquoted === null) return refuse('a quoted value must be one well-formed structured-field string');
  if (unquoted !== trimmed && unquoted === '') return refuse('must not be empty');
  if (unquoted === trimmed && trimmed.includes(',')) return refuse('send exactly one value (no comma)');
  if (unquoted.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return refuse(`must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  if (!visibleAscii.test(unquoted)) return refuse('must be visible ASCII characters only');
  return ok(unquoted);
};

/**
 * The deepest nesting of arrays and objects a fingerprinted body may have. Real payloads nest a
 * few levels; a body nested thousands deep (a few bytes a level) would otherwise exhaust the stack,
 * and a cyclic in-process body would never end.
 */
export const MAX_BODY_NESTING = 256;

/** Why a body has no fingerprint: nested too deeply (or cyclic), or holding a value JSON cannot write. */
const unfingerprintable = (reason: string): ValidationFailed => validationFailed(reason, { body: [reason] });

const TOO_DEEP = `The request body is nested too deeply (more than ${MAX_BODY_NESTING} levels)`;
const NOT_JSON = 'The request body holds a value JSON cannot represent (a BigInt)';

/** Set when the walk meets a value it cannot write; the text built so far is then dropped. */
type Walk = { failure: string | undefined };

const write = (value: unknown, depth: number, walk: Walk): string => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') {
      walk.failure = NOT_JSON;
      return '';
    }
    return JSON.stringify(value) ?? 'null';
  }
  if (depth >= MAX_BODY_NESTING) {
    walk.failure = TOO_DEEP;
    return '';
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      if (index in value) text += write(value[index], depth + 1, walk);
      if (walk.failure !== undefined) return '';
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, as `<` does.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${write(member, depth + 1, walk)}`;
    if (walk.failure !== undefined) return '';
  }
  return `${text}}`;
};

/**
 * JSON with object keys sorted at every depth, so key order never changes a fingerprint. Stored
 * fingerprints compare with new ones across versions, so the text must never change: keys in
 * UTF-16 code unit order, members whose value is `undefined` left out, a primitive as
 * `JSON.stringify` writes it (`null` when it writes nothing), an array hole as nothing at all.
 * Built with one string and no intermediate arrays: every keyed request hashes its whole body.
 * Err (400 at `body`): nested deeper than `MAX_BODY_NESTING` (a cycle included), or a BigInt.
 */
export const canonicalJson = (value: unknown): Result<string, ValidationFailed> => {
  const walk: Walk = { failure: undefined };
  const text = write(value, 0, walk);
  return walk.failure === undefined ? ok(text) : err(unfingerprintable(walk.failure));
};

/**
 * SHA-256 (hex) of the canonical JSON of a request body: what "the same request" means. Err: the
 * body has no canonical JSON (`canonicalJson`), and the request is refused before any claim.
 */
export const fingerprintRequestBody = (
  body: unknown,
  hashing: TextHashing = portableTextHashing,
): Result<string, ValidationFailed> => canonicalJson(body).map((text) => hashing.sha256Hex(text));
