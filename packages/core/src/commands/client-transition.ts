import { err, errAsync, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { auditActionOfTrigger, auditActorKey, auditActorOf, auditChanges } from '../domain/audit-entry.js';
import { historyEntry, type StoredClient, toClientResponse } from '../domain/client.js';
import { eventsOfCommand } from '../domain/client-events.js';
import { refuseChangedClient } from '../domain/client-version.js';
import type { DocumentRecord } from '../domain/documents.js';
import { type ClientStatusTrigger, transitionClientStatus } from '../domain/status-machine.js';
import {
  type ClientChanged,
  clientNotFound,
  clientTypeMismatch,
  type DomainError,
  invalidStatus,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { Principal } from '../principal.js';
import type { AuditActor } from '../schemas/audit.js';
import type { Client, ClientStatus, ClientType } from '../schemas/client-response.js';
import { isUuid } from '../validation/parse-request.js';
import { type CommandTransaction, type IdempotentCommandContext, runCommand } from './idempotent-command.js';

/**
 * The context of a command on one client that its caller decided on as it saw it (a reviewer's
 * form, a compliance call with `If-Match`).
 */
export type ClientCommandContext = IdempotentCommandContext & {
  /**
   * The client's `clientVersion` as the caller saw it. Compared with the client as locked in the
   * command's transaction: another version is `ClientChanged`, and nothing is written. Absent: no
   * comparison.
   */
  readonly expectedVersion?: string;
};

/**
 * `ClientChanged` when the caller decided on another version of `client` (the one locked in the
 * command's transaction) than this one; undefined when it saw this one or gave none, in which case
 * no code of `client-version.ts` runs.
 */
export const changedSinceSeen = (
  seen: { readonly expectedVersion?: string | undefined } | undefined,
  client: StoredClient,
): ClientChanged | undefined =>
  seen?.expectedVersion === undefined ? undefined : refuseChangedClient(seen.expectedVersion, client);

/** One move of the status machine on an existing client, as a command. */
export type ClientTransition = {
  readonly clientId: string;
  /** The version the caller decided on (`ClientCommandContext`), checked on the locked client. */
  readonly expectedVersion?: string | undefined;
  readonly trigger: Exclude<ClientStatusTrigger, 'CREATE'>;
  /** Who moves it: the audit entry's actor, and (as `principalKey`) the status history's. */
  readonly actor: AuditActor;
  /** Whether the caller may see this client (another manager's client is "not found"). */
  readonly visibleTo: (client: StoredClient) => boolean;
  /** Resubmissions must match the client's type. */
  readonly expectedType?: ClientType;
  readonly reason?: string | null;
  /** What in the request this client cannot take (a field of another payload type), if anything. */
  readonly refuseBody?: (client: StoredClient) => DomainError | undefined;
  /** The client after the move (status, timestamps and any new onboarding information). */
  readonly apply: (client: StoredClient, to: ClientStatus, at: string) => StoredClient;
  /** Index rows of documents promoted by this command, written in the same transaction. */
  readonly documents?: readonly DocumentRecord[];
  /** Screen the client again once the move commits (a resubmission, when the kit screens). */
  readonly rescreen?: boolean;
};

/** The target status if the move is allowed for this caller on this client, else the refusal. */
export const checkTransition = (
  transition: Pick<
    ClientTransition,
    'clientId' | 'trigger' | 'visibleTo' | 'expectedType' | 'refuseBody' | 'expectedVersion'
  >,
  client: StoredClient | null,
): Result<{ client: StoredClient; to: ClientStatus }, DomainError> => {
  const { clientId, trigger, expectedType } = transition;
  if (client === null || !transition.visibleTo(client)) return err(clientNotFound(clientId));
  // Before any other refusal: what the caller saw is not what is there, whatever else is wrong.
  const changed = changedSinceSeen(transition, client);
  if (changed !== undefined) return err(changed);
  if (expectedType !== undefined && client.clientType !== expectedType) {
    return err(clientTypeMismatch(clientId, client.clientType, expectedType));
  }
  const refusal = transition.refuseBody?.(client);
  if (refusal !== undefined) return err(refusal);
  return transitionClientStatus(clientId, client.status, trigger).map((to) => ({ client, to }));
};

/**
 * Runs the move in the command's transaction: lock the client, check the move, write the client,
 * its history entry, the document index rows, its events and its audit entry (the transaction adds
 * the idempotency record).
 */
export const runClientTransition = (
  ctx: KitContext,
  transaction: CommandTransaction<Client>,
  transition: ClientTransition,
): ResultAsync<Client, DomainError> =>
  transaction((tx) =>
    tx.clients.findForUpdate(transition.clientId).andThen((current) => {
      const checked = checkTransition(transition, current);
      if (checked.isErr()) return errAsync(checked.error);
      const { client, to } = checked.value;
      const at = ctx.ports.clock.now().toISOString();
      const next = transition.apply(client, to, at);
      const entry = historyEntry(
        client.status,
        to,
        auditActorKey(transition.actor),
        at,
        transition.reason ?? null,
      );
      const documents = transition.documents ?? [];
      return tx.clients
        .update(next, client.status, entry)
        .mapErr(
          (error): DomainError =>
            error.type === 'StaleClientState'
              ? invalidStatus(transition.clientId, error.expectedStatus, transition.trigger)
              : error,
        )
        .andThen(() => (documents.length > 0 ? tx.documents.insertMany(documents) : okAsync(undefined)))
        .andThen(() =>
          transition.rescreen ? tx.screeningJobs.enqueueScreening(next.id) : okAsync(undefined),
        )
        .andThen(() =>
          tx.events.append(
            eventsOfCommand(
              transition.trigger,
              next,
              documents.map((document) => document.key),
              { newId: () => ctx.ports.ids.uuid(), at },
            ),
          ),
        )
        .andThen(() =>
          tx.audit.append([
            {
              id: ctx.ports.ids.uuid(),
              clientId: next.id,
              action: auditActionOfTrigger[transition.trigger],
              actor: transition.actor,
              at,
              changes: auditChanges(client, next),
              documents: [],
            },
          ]),
        )
        .map(() => toClientResponse(next));
    }),
  );

/**
 * The soft delete (manager or compliance): `DELETED`, the outstanding resubmission cleared, and
 * `deletedAt` set. `visibleTo` says whose clients the caller may delete.
 */
export const deleteClient = (
  ctx: KitContext,
  command: ClientCommandContext | undefined,
  principal: Principal,
  clientId: string,
  visibleTo: (client: StoredClient) => boolean,
): ResultAsync<Client, DomainError> =>
  runCommand(ctx, command, (transaction) =>
    isUuid(clientId)
      ? runClientTransition(ctx, transaction, {
          clientId,
          trigger: 'DELETE',
          expectedVersion: command?.expectedVersion,
          actor: auditActorOf(principal),
          visibleTo,
          apply: (client, to, at) => ({
            ...client,
            status: to,
            onboardingResubmissionReason: null,
            resubmissionRequirements: null,
            updatedAt: at,
            deletedAt: at,
          }),
        })
      : errAsync(clientNotFound(clientId)),
  );
