import { err, errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { match } from 'ts-pattern';
import { type DomainError, idempotencyRequestInProgress } from '../errors.js';
import type { IdempotentCommandContext } from '../onboarding-kit.js';
import type { IdempotencyLockLost, IdempotencyStore, StoredResponse } from '../ports/idempotency-store.js';
import type { KitContext } from './kit-context.js';

/** Losing the fenced lock means another request now holds the key: it is "in progress" for us. */
const lockLostAsInProgress = (error: DomainError | IdempotencyLockLost): DomainError =>
  match(error)
    .with({ type: 'IdempotencyLockLost' }, () => idempotencyRequestInProgress())
    .otherwise((domainError) => domainError as DomainError);

/** Writes the replayable response of a successful command through the command's own transaction. */
export const recordSuccessInTransaction = (
  ctx: KitContext,
  store: Pick<IdempotencyStore, 'complete'>,
  command: IdempotentCommandContext | undefined,
  value: unknown,
): ResultAsync<void, DomainError> => {
  const guard = command?.idempotency;
  if (!guard) return okAsync(undefined);
  const response: StoredResponse | null = guard.encode(ok(value));
  return response
    ? store.complete(guard.ref, response, ctx.ports.clock.now()).mapErr(lockLostAsInProgress)
    : okAsync(undefined);
};

/**
 * A failed command hands its error to `encode`: a business refusal decided once the command ran
 * (not found, invalid status) is recorded on its own — no business write goes with it — and
 * replayed like a success; other failures (`encode` gives null) leave the key to be released.
 */
export const recordRefusal = (
  ctx: KitContext,
  command: IdempotentCommandContext | undefined,
  refusal: DomainError,
): ResultAsync<never, DomainError> => {
  const guard = command?.idempotency;
  const response = guard?.encode(err(refusal)) ?? null;
  if (!guard || !response) return errAsync(refusal);
  return ctx.ports.idempotency
    .complete(guard.ref, response, ctx.ports.clock.now())
    .mapErr(lockLostAsInProgress)
    .andThen(() => errAsync(refusal));
};
