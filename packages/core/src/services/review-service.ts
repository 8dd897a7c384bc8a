import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { type ClientCommandContext, changedSinceSeen, deleteClient } from '../commands/client-transition.js';
import {
  type CommandStores,
  type IdempotentCommandContext,
  runCommand,
} from '../commands/idempotent-command.js';
import { auditActorOf, type CommandAuditEntry } from '../domain/audit-entry.js';
import { type StoredClient, toClientResponse } from '../domain/client.js';
import { isReviewQueueStatus, type ReviewQueueStatus, reviewQueueStatuses } from '../domain/review-queue.js';
import { clientNotFound, type DomainError, invalidStatus } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { reviewQueueCursor } from '../pagination/page-cursor.js';
import type { ReviewQueueFilter, ReviewQueuePosition } from '../ports/client-repository.js';
import type { CompliancePrincipal } from '../principal.js';
import type { Client, ReviewAssignment, StatusHistoryEntry } from '../schemas/client-response.js';
import {
  type AssignNextResponse,
  assignNextBodySchema,
  type ReviewQueueResponse,
  reviewQueueQuerySchema,
} from '../schemas/review-queue.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

/**
 * The compliance team's daily work: the queue of clients waiting for a reviewer, assigning them,
 * and reading any manager's client. Compliance sees every manager's clients.
 */
export interface ReviewService {
  /** `query`: the raw query string object (status, clientType, screening, assignee, limit, cursor). */
  queue(principal: CompliancePrincipal, query: unknown): ResultAsync<ReviewQueueResponse, DomainError>;
  get(principal: CompliancePrincipal, clientId: string): ResultAsync<Client, DomainError>;
  statusHistory(
    principal: CompliancePrincipal,
    clientId: string,
  ): ResultAsync<StatusHistoryEntry[], DomainError>;
  /** Assigns a waiting client to the caller (taking it over from another reviewer, audited). */
  assign(
    principal: CompliancePrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  /**
   * Assigns the caller the first unassigned waiting client in queue order (`body`: optional
   * filters), or answers null when none waits. Two callers at once get two different clients.
   */
  assignNext(
    principal: CompliancePrincipal,
    body?: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<AssignNextResponse, DomainError>;
  /** Leaves the client unassigned (whoever held it); an unassigned client answers as it is. */
  release(
    principal: CompliancePrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  /** Deletes the client (any status but DELETED), with the reviewer as the actor. */
  delete(
    principal: CompliancePrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
}

export const createReviewService = (ctx: KitContext): ReviewService => {
  const { ports } = ctx;

  const find = (clientId: string): ResultAsync<StoredClient, DomainError> =>
    (isUuid(clientId) ? ports.clients.findById(clientId) : okAsync(null)).andThen((client) =>
      client === null ? errAsync(clientNotFound(clientId)) : ok(client),
    );

  /**
   * Assigns a locked client to the caller (`assign`) or to nobody, dated now (its `assignedAt` and
   * `updatedAt`: the answer shows the assignee), with its audit entry, in the command's transaction.
   */
  const reassign = (
    tx: CommandStores,
    principal: CompliancePrincipal,
    client: StoredClient,
    assign: boolean,
  ): ResultAsync<StoredClient, DomainError> => {
    const at = ports.clock.now().toISOString();
    const assignee: ReviewAssignment | null = assign
      ? { complianceId: principal.complianceId, assignedAt: at }
      : null;
    const entry: CommandAuditEntry = {
      id: ports.ids.uuid(),
      clientId: client.id,
      action: assign ? 'assign' : 'release',
      actor: auditActorOf(principal),
      at,
      changes: [{ path: 'assignee', before: client.assignee, after: assignee }],
      documents: [],
    };
    return tx.clients
      .updateAssignment(client.id, assignee, at)
      .andThen(() => tx.audit.append([entry]))
      .map(() => ({ ...client, assignee, updatedAt: at }));
  };

  /** Tries each waiting status in queue order until one has an unassigned client to lock. */
  const lockNext = (
    tx: CommandStores,
    statuses: readonly ReviewQueueStatus[],
    filter: Omit<ReviewQueueFilter, 'assigneeId'>,
  ): ResultAsync<StoredClient | null, DomainError> => {
    const [status, ...rest] = statuses;
    if (status === undefined) return okAsync(null);
    return tx.clients
      .lockNextUnassigned(status, filter)
      .andThen((client) => (client === null ? lockNext(tx, rest, filter) : okAsync(client)));
  };

  /** One page over the statuses from the cursor's on: a status's page, then the next status's. */
  const queuePage = (
    statuses: readonly ReviewQueueStatus[],
    filter: ReviewQueueFilter,
    after: ReviewQueuePosition | undefined,
    wanted: number,
  ): ResultAsync<Array<{ client: StoredClient; turn: number; status: ReviewQueueStatus }>, DomainError> => {
    const [status, ...rest] = statuses;
    if (status === undefined || wanted <= 0) return okAsync([]);
    return ports.clients
      .reviewQueue({ ...filter, status, limit: wanted, ...(after === undefined ? {} : { after }) })
      .andThen((rows) => {
        const page = rows.map((row) => ({ ...row, status }));
        return page.length >= wanted
          ? okAsync(page)
          : queuePage(rest, filter, undefined, wanted - page.length).map((more) => [...page, ...more]);
      });
  };

  return {
    queue: (principal, query) => {
      const parsed = parseRequest(reviewQueueQuerySchema, query, 'The query parameters are invalid');
      if (parsed.isErr()) return errAsync(parsed.error);
      const { status, clientType, screening, assignee, limit, cursor } = parsed.value;
      const after = reviewQueueCursor.decode(cursor, 'cursor');
      if (after.isErr()) return errAsync(after.error);
      const filter: ReviewQueueFilter = {
        ...(clientType === undefined ? {} : { clientType }),
        ...(screening === undefined ? {} : { screening }),
        ...(assignee === undefined ? {} : { assigneeId: assignee === 'me' ? principal.complianceId : null }),
      };
      // The statuses still to walk: the filter's one, or every one from the cursor's status on.
      const from = after.value?.status ?? status ?? reviewQueueStatuses[0];
      const statuses = reviewQueueStatuses.filter(
        (each) =>
          (status === undefined || each === status) &&
          reviewQueueStatuses.indexOf(each) >= reviewQueueStatuses.indexOf(from),
      );
      const position =
        after.value === undefined
          ? undefined
          : { turn: after.value.turn, createdAt: after.value.createdAt, id: after.value.id };
      return queuePage(statuses, filter, position, limit + 1).andThen((rows) =>
        ports.clients.countReviewQueue(filter).andThen((counts) => {
          const page = rows.slice(0, limit);
          const last = page.at(-1);
          return ok({
            data: page.map(({ client }) => ({ ...toClientResponse(client), managerId: client.managerId })),
            nextCursor:
              rows.length > limit && last
                ? reviewQueueCursor.encode({
                    status: last.status,
                    turn: last.turn,
                    createdAt: last.client.createdAt,
                    id: last.client.id,
                  })
                : null,
            counts,
          });
        }),
      );
    },

    get: (_principal, clientId) => find(clientId).map(toClientResponse),

    statusHistory: (_principal, clientId) =>
      find(clientId).andThen((client) => ports.clients.statusHistory(client.id)),

    assign: (principal, clientId, command) =>
      runCommand(ctx, command, (transaction) =>
        isUuid(clientId)
          ? transaction((tx) =>
              tx.clients.findForUpdate(clientId).andThen((client) => {
                if (client === null) return errAsync(clientNotFound(clientId));
                const changed = changedSinceSeen(command, client);
                if (changed !== undefined) return errAsync(changed);
                if (!isReviewQueueStatus(client.status)) {
                  return errAsync(invalidStatus(client.id, client.status, 'ASSIGN'));
                }
                // Already the caller's: nothing changes, nothing is audited.
                if (client.assignee?.complianceId === principal.complianceId) {
                  return okAsync(toClientResponse(client));
                }
                return reassign(tx, principal, client, true).map(toClientResponse);
              }),
            )
          : errAsync(clientNotFound(clientId)),
      ),

    assignNext: (principal, body, command) => {
      const parsed = parseRequest(assignNextBodySchema, body ?? {});
      if (parsed.isErr()) return runCommand(ctx, command, () => errAsync(parsed.error));
      const { status, clientType, screening } = parsed.value;
      const filter = {
        ...(clientType === undefined ? {} : { clientType }),
        ...(screening === undefined ? {} : { screening }),
      };
      const statuses = reviewQueueStatuses.filter((each) => status === undefined || each === status);
      return runCommand(ctx, command, (transaction) =>
        transaction((tx) =>
          lockNext(tx, statuses, filter).andThen((client) =>
            client === null
              ? okAsync<AssignNextResponse, DomainError>({ client: null })
              : reassign(tx, principal, client, true).map((assigned) => ({
                  client: toClientResponse(assigned),
                })),
          ),
        ),
      );
    },

    release: (principal, clientId, command) =>
      runCommand(ctx, command, (transaction) =>
        isUuid(clientId)
          ? transaction((tx) =>
              tx.clients.findForUpdate(clientId).andThen((client) => {
                if (client === null) return errAsync(clientNotFound(clientId));
                const changed = changedSinceSeen(command, client);
                if (changed !== undefined) return errAsync(changed);
                if (client.assignee === null) return okAsync(toClientResponse(client));
                return reassign(tx, principal, client, false).map(toClientResponse);
              }),
            )
          : errAsync(clientNotFound(clientId)),
      ),

    delete: (principal, clientId, command) => deleteClient(ctx, command, principal, clientId, () => true),
  };
};
