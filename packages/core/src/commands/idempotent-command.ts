import { err, errAsync, ok, okAsync, ResultAsync } from 'neverthrow';
import { auditRequestId, type CommandAuditEntry } from '../domain/audit-entry.js';
import type { AuditSealer } from '../domain/audit-seal.js';
import { type DomainError, isRecordableRefusal, lockLostAsInProgress } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { IdempotencyClaimRef, RecordedOutcome } from '../ports/idempotency-store.js';
import type { TransactionalStores } from '../ports/unit-of-work.js';
import { recoverErr } from './document-promotion.js';

/**
 * Makes one call of a mutating command idempotent: the claim its caller holds on an Idempotency-Key
 * (`kit.idempotency.claim`). The command then owns the claim: it records its outcome in its own
 * transaction (a success with its writes, a recordable refusal on its own) or releases the claim
 * (any other failure). The caller only maps the outcome; it never completes or releases the claim.
 */
export type IdempotentCommandContext = {
  readonly claim?: IdempotencyClaimRef;
  /** The id the host gave the request (`X-Request-Id`), written to the command's audit entries. */
  readonly requestId?: string;
};

/**
 * The stores a command writes through: its idempotency record is not among them (runCommand writes
 * it), appending its events also enqueues their webhook deliveries, in the same transaction, and its
 * audit entries get the call's request id.
 * A redelivery enqueues its one attempt itself.
 */
export type CommandStores = Pick<
  TransactionalStores,
  | 'clients'
  | 'documents'
  | 'events'
  | 'webhookEndpoints'
  | 'webhookDeliveries'
  | 'screeningJobs'
  | 'screenedNames'
> & {
  readonly webhookJobs: Pick<TransactionalStores['webhookJobs'], 'enqueueAttempt'>;
  /** Appends the command's audit entries, with the request id of the call (and redaction's rewrite). */
  readonly audit: Pick<TransactionalStores['audit'], 'redactChanges'> & {
    append(entries: readonly CommandAuditEntry[]): ReturnType<TransactionalStores['audit']['append']>;
  };
  /** Redaction's removal of the stored answers that hold a client. */
  readonly idempotencyRecords: Pick<TransactionalStores['idempotency'], 'rewriteForClient'>;
};

/**
 * The `CommandStores` of one transaction. Getters, so that a store the command does not use is never
 * made; on a class, not on an object literal made for each transaction: a literal with getters is
 * an object in dictionary mode, and the closures of its getters kept the transaction's stores and
 * what they held alive past young collections (docs/performance.md, 2026-11-28).
 */
class CommandStoresOf implements CommandStores {
  readonly events: CommandStores['events'];
  readonly audit: CommandStores['audit'];
  readonly idempotencyRecords: CommandStores['idempotencyRecords'];

  constructor(
    private readonly stores: TransactionalStores,
    requestId: string | null,
    sealer: AuditSealer | undefined,
  ) {
    this.events = {
      // Both asked for at once (neither needs the other's answer: a driver that pipelines sends them
      // together); the append's failure first.
      append: (events) =>
        ResultAsync.combine([
          stores.events.append(events),
          stores.webhookJobs.enqueueEventDeliveries(events),
        ]).map(() => undefined),
      rewriteForClient: (clientId, rewrite) => stores.events.rewriteForClient(clientId, rewrite),
    };
    this.audit = {
      append: (entries) =>
        stores.audit.append(
          entries.map((entry) => ({ ...entry, requestId })),
          sealer,
        ),
      redactChanges: (clientId) => stores.audit.redactChanges(clientId),
    };
    this.idempotencyRecords = {
      rewriteForClient: (clientId, rewrite, documentNames) =>
        stores.idempotency.rewriteForClient(clientId, rewrite, documentNames),
    };
  }

  get clients() {
    return this.stores.clients;
  }
  get documents() {
    return this.stores.documents;
  }
  get webhookEndpoints() {
    return this.stores.webhookEndpoints;
  }
  get webhookDeliveries() {
    return this.stores.webhookDeliveries;
  }
  get webhookJobs() {
    return this.stores.webhookJobs;
  }
  get screeningJobs() {
    return this.stores.screeningJobs;
  }
  get screenedNames() {
    return this.stores.screenedNames;
  }
}

/**
 * A command's one transaction. What `work` resolves to is the command's result: when the caller
 * holds a claim, it is recorded in this same transaction, so the write and its replay commit
 * together (or neither does).
 */
export type CommandTransaction<T> = (
  work: (stores: CommandStores) => ResultAsync<T, DomainError>,
) => ResultAsync<T, DomainError>;

/**
 * The one path of every mutating command (decisions §5), so none can forget a step:
 * - its writes go through the `transaction` it is given, which records its success with them; a
 *   command with no write of its own (presigning links) has its success recorded once it is done;
 * - a refusal decided once it ran (`isRecordableRefusal`: not found, invalid status) is recorded
 *   on its own (there is no business write to commit with it) and replayed like a success;
 * - any other failure (invalid input, an outage, an unknown commit outcome) releases the claim, so
 *   a corrected retry runs anew (a commit that was kept has completed the record: the release
 *   then changes nothing, and the retry replays it).
 * Without a claim the command simply runs.
 */
export const runCommand = <T>(
  ctx: KitContext,
  context: IdempotentCommandContext | undefined,
  command: (transaction: CommandTransaction<T>) => ResultAsync<T, DomainError>,
): ResultAsync<T, DomainError> => {
  const claim = context?.claim;
  const { ports } = ctx;
  const complete = (ref: IdempotencyClaimRef, outcome: RecordedOutcome) =>
    ports.idempotency.complete(ref, outcome, ports.clock.now()).mapErr(lockLostAsInProgress);

  const requestId = auditRequestId(context?.requestId);
  let transacted = false;
  const transaction: CommandTransaction<T> = (work) => {
    transacted = true;
    // A claim lost when the completion is called, or found lost at the commit: either way the
    // command answers "in progress", mapped once below.
    // recoverErr and andThen, not mapErr and map: those run every Ok through neverthrow's
    // generator-based awaiter, promise jobs every command paid (docs/performance.md).
    const written = ports.unitOfWork.transaction((stores) =>
      work(new CommandStoresOf(stores, requestId, ctx.auditSealer)).andThen((value) =>
        claim === undefined
          ? okAsync(value)
          : stores.idempotency
              .complete(claim, { kind: 'command', ok: true, value }, ports.clock.now())
              .andThen(() => ok(value)),
      ),
    );
    return recoverErr(written, (error) => err(lockLostAsInProgress(error)));
  };

  const outcome = command(transaction);
  if (claim === undefined) return outcome;
  return recoverErr(
    outcome.andThen((value) =>
      transacted
        ? okAsync(value)
        : complete(claim, { kind: 'command', ok: true, value }).andThen(() => ok(value)),
    ),
    (error): ResultAsync<never, DomainError> =>
      isRecordableRefusal(error)
        ? complete(claim, { kind: 'command', ok: false, error }).andThen(() => errAsync(error))
        : ports.idempotency
            .release(claim)
            // A release that fails leaves the lock to expire (lock TTL): the failure to report is the command's.
            .orElse(() => okAsync(undefined))
            .andThen(() => errAsync(error)),
  );
};
