import { err, errAsync, ok, okAsync, ResultAsync } from 'neverthrow';
import {
  type CommandStores,
  type IdempotentCommandContext,
  runCommand,
} from '../commands/idempotent-command.js';
import { type StoredWebhookDelivery, toWebhookDeliveryResponse } from '../domain/webhook-delivery.js';
import { endpointTakes } from '../domain/webhook-endpoint.js';
import { type DomainError, storageUnavailable, webhookDeliveryNotFound } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { createdAtAndIdCursor } from '../pagination/page-cursor.js';
import type { WebhookDeliveryStore } from '../ports/webhook-delivery-store.js';
import type { WebhookJob } from '../ports/webhook-job-queue.js';
import type { ManagerPrincipal } from '../principal.js';
import {
  type WebhookDelivery,
  type WebhookDeliveryListResponse,
  webhookDeliveryListQuerySchema,
} from '../schemas/webhook-endpoints.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';
import { createWebhookAttempts, NOTHING_DONE, type WebhookJobReport } from './webhook-attempts.js';
import { findOwnEndpoint } from './webhook-endpoint-operations.js';

export type { WebhookJobReport } from './webhook-attempts.js';
export type WebhookJobOptions = { readonly signal?: AbortSignal };

/** The deliveries of a manager's events: list them, redeliver one, and run a runner's job. */
export interface WebhookDeliveryOperations {
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
  /**
   * Runs one job. Once `signal` is aborted (its runner stops), what has not started is handed back
   * to the queue as a job for later, and the job ends when the attempts already sent have.
   */
  runJob(job: WebhookJob, options?: WebhookJobOptions): ResultAsync<WebhookJobReport, DomainError>;
}

/** A job may run a little before its delivery's `nextAttemptAt` (clocks of two hosts). */
const EARLY_RUN_TOLERANCE_MS = 1_000;

/** Redeliveries retried when an attempt was recorded in between. */
const REDELIVERY_ATTEMPTS = 3;
/**
 * Delivery of events to endpoints: the jobs a runner hands over (create the deliveries of new
 * events and attempt them; attempt one again), a manager's view of them, and redelivery.
 */
export const createWebhookDeliveryOperations = (ctx: KitContext): WebhookDeliveryOperations => {
  const { ports, options } = ctx;
  const { attempt, attemptWith, attemptAll, deferAttempts, isBusy } = createWebhookAttempts(ctx);
  const now = () => ports.clock.now();
  /**
   * Creates the deliveries of events to the endpoints taking them, then attempts the new ones with
   * the endpoints and events this job has already read.
   */
  const deliverEvents = (
    eventIds: readonly string[],
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport, DomainError> =>
    ports.events.findByIds(eventIds).andThen((events) => {
      const managers = [...new Set(events.map(({ managerId }) => managerId))];
      return ResultAsync.combine(
        managers.map((managerId) => ports.webhookEndpoints.listForManager(managerId)),
      ).andThen((endpointLists) => {
        const at = now();
        const retryUntil = new Date(at.getTime() + options.webhookRetryWindowMs).toISOString();
        const listed = endpointLists.flat();
        const endpoints = new Map(listed.map((endpoint) => [endpoint.id, endpoint]));
        const eventsById = new Map(events.map((logged) => [logged.event.id, logged]));
        const deliveries = events.flatMap(({ managerId, event }) =>
          listed
            .filter(
              (endpoint) =>
                // A disabled endpoint gets no new deliveries.
                endpoint.managerId === managerId &&
                endpoint.disabledAt === null &&
                endpointTakes(endpoint, event.type),
            )
            .map(
              (endpoint): StoredWebhookDelivery => ({
                id: ports.ids.uuid(),
                managerId,
                endpointId: endpoint.id,
                eventId: event.id,
                eventType: event.type,
                status: 'pending',
                attempts: 0,
                createdAt: at.toISOString(),
                retryUntil,
                lastAttemptAt: null,
                nextAttemptAt: at.toISOString(),
                lastStatusCode: null,
                lastError: null,
              }),
            ),
        );
        if (deliveries.length === 0) return okAsync(NOTHING_DONE);
        return ports.webhookDeliveries
          .insertMissing(deliveries)
          .andThen(() => ports.webhookDeliveries.listForEvents([...eventsById.keys()]))
          .andThen((stored) =>
            // Those never attempted: after a crash of this job, a rerun attempts what it had not.
            attemptAll(
              stored.filter((delivery) => delivery.status === 'pending' && delivery.attempts === 0),
              (delivery) => {
                const endpoint = endpoints.get(delivery.endpointId);
                const logged = eventsById.get(delivery.eventId);
                // An endpoint created after this job read the list: its own attempt reads it.
                return endpoint === undefined || logged === undefined || isBusy(endpoint.id)
                  ? attempt(delivery, signal)
                  : attemptWith(delivery, endpoint, logged, signal);
              },
            ),
          );
      });
    });

  /** Attempts these deliveries if they are still pending and due (a retry, a redelivery). */
  const attemptDeliveries = (
    deliveryIds: readonly string[],
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport, DomainError> =>
    ResultAsync.combine(deliveryIds.map((id) => ports.webhookDeliveries.find(id))).andThen((found) =>
      attemptAll(
        found.filter((delivery): delivery is StoredWebhookDelivery => {
          if (delivery === null || delivery.status !== 'pending') return false;
          const due = delivery.nextAttemptAt === null ? 0 : Date.parse(delivery.nextAttemptAt);
          // A duplicate job, or one that ran early: the job the last attempt enqueued is the one to run.
          return due <= now().getTime() + EARLY_RUN_TOLERANCE_MS;
        }),
        (delivery) => attempt(delivery, signal),
      ),
    );

  const findOwnDelivery = (
    deliveries: Pick<WebhookDeliveryStore, 'find'>,
    managerId: string,
    endpointId: string,
    deliveryId: string,
  ) =>
    (isUuid(deliveryId) ? deliveries.find(deliveryId) : okAsync(null)).andThen((delivery) =>
      delivery === null || delivery.managerId !== managerId || delivery.endpointId !== endpointId
        ? err(webhookDeliveryNotFound(deliveryId))
        : ok(delivery),
    );

  /**
   * Pending again, due now, with a fresh retry window, and its attempt enqueued, in the command's
   * transaction; read again and retried when an attempt was recorded meanwhile. A race lost every
   * time is a retryable 503, never a "not found" the Idempotency-Key would replay while the
   * delivery exists.
   */
  const redeliver = (
    stores: CommandStores,
    managerId: string,
    endpointId: string,
    deliveryId: string,
    attemptsLeft: number,
  ): ResultAsync<StoredWebhookDelivery, DomainError> =>
    findOwnDelivery(stores.webhookDeliveries, managerId, endpointId, deliveryId).andThen((delivery) => {
      const at = now();
      const next: StoredWebhookDelivery = {
        ...delivery,
        status: 'pending',
        nextAttemptAt: at.toISOString(),
        retryUntil: new Date(at.getTime() + options.webhookRetryWindowMs).toISOString(),
      };
      return stores.webhookDeliveries
        .update(next, delivery.attempts)
        .andThen((recorded): ResultAsync<StoredWebhookDelivery, DomainError> => {
          if (recorded) return stores.webhookJobs.enqueueAttempt(next.id, at).map(() => next);
          return attemptsLeft > 1
            ? redeliver(stores, managerId, endpointId, deliveryId, attemptsLeft - 1)
            : errAsync(storageUnavailable('webhook-deliveries')('Attempts kept being recorded meanwhile'));
        });
    });

  return {
    runJob: (job, { signal } = {}) => {
      switch (job.type) {
        case 'deliver-events':
          return deliverEvents(job.eventIds, signal);
        case 'attempt-delivery':
          return attemptDeliveries([job.deliveryId], signal);
        case 'attempt-deliveries': {
          // Put off again, unread, while their endpoints are still slow and busy.
          const busy = job.deliveries.filter(({ endpointId }) => isBusy(endpointId));
          return deferAttempts(busy).andThen(() =>
            attemptDeliveries(
              job.deliveries.filter((put) => !busy.includes(put)).map(({ deliveryId }) => deliveryId),
              signal,
            ),
          );
        }
      }
    },
    listDeliveries: (principal, endpointId, query) => {
      const parsed = parseRequest(webhookDeliveryListQuerySchema, query, 'The query parameters are invalid');
      if (parsed.isErr()) return errAsync(parsed.error);
      const { status, limit, cursor } = parsed.value;
      const decoded = createdAtAndIdCursor.decode(cursor, 'cursor');
      if (decoded.isErr()) return errAsync(decoded.error);
      const before = decoded.value;
      return findOwnEndpoint(ports.webhookEndpoints, principal, endpointId).andThen(() =>
        ports.webhookDeliveries
          .listForEndpoint({
            managerId: principal.managerId,
            endpointId,
            limit: limit + 1,
            ...(status === undefined ? {} : { status }),
            ...(before === undefined ? {} : { before }),
          })
          .map((rows) => {
            const page = rows.slice(0, limit);
            const last = page.at(-1);
            return {
              data: page.map(toWebhookDeliveryResponse),
              nextCursor:
                rows.length > limit && last !== undefined ? createdAtAndIdCursor.encode(last) : null,
            };
          }),
      );
    },
    redeliver: (principal, endpointId, deliveryId, context) =>
      runCommand(ctx, context, (transaction) =>
        transaction((stores) =>
          findOwnEndpoint(stores.webhookEndpoints, principal, endpointId)
            .andThen(() =>
              redeliver(stores, principal.managerId, endpointId, deliveryId, REDELIVERY_ATTEMPTS),
            )
            .map(toWebhookDeliveryResponse),
        ),
      ),
  };
};
