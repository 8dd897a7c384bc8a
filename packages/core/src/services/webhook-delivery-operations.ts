import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import {
  type CommandStores,
  type IdempotentCommandContext,
  runCommand,
} from '../commands/idempotent-command.js';
import {
  deliveryAfterAttempt,
  parseRetryAfter,
  type StoredWebhookDelivery,
  toWebhookDeliveryResponse,
  type WebhookAttemptOutcome,
} from '../domain/webhook-delivery.js';
import {
  DISABLE_AFTER_FAILING_MS,
  endpointTakes,
  type StoredWebhookEndpoint,
  signingSecretsAt,
  type WebhookEndpointAttemptResult,
} from '../domain/webhook-endpoint.js';
import {
  type DomainError,
  lockLostAsInProgress,
  storageUnavailable,
  webhookDeliveryNotFound,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { createdAtAndIdCursor } from '../pagination/page-cursor.js';
import type { LoggedEvent } from '../ports/event-log.js';
import type { TransactionalStores } from '../ports/unit-of-work.js';
import type { WebhookDeliveryStore } from '../ports/webhook-delivery-store.js';
import type { PutOffDelivery, WebhookJob } from '../ports/webhook-job-queue.js';
import type { WebhookAnswer } from '../ports/webhook-transport.js';
import type { ManagerPrincipal } from '../principal.js';
import {
  type WebhookDelivery,
  type WebhookDeliveryListResponse,
  webhookDeliveryListQuerySchema,
} from '../schemas/webhook-endpoints.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';
import { allowsPrivateNetwork } from '../validation/webhook-endpoint-url.js';
import { signWebhook } from '../webhooks/webhook-signature.js';
import { createWebhookAttemptSlots } from './webhook-attempt-slots.js';
import { findOwnEndpoint } from './webhook-endpoint-operations.js';

/** What one webhook job did: how many attempts it made and how they ended. */
export type WebhookJobReport = {
  readonly attempted: number;
  readonly succeeded: number;
  readonly retrying: number;
  readonly failed: number;
};

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

const NOTHING_DONE: WebhookJobReport = { attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
/**
 * Attempts one process has in flight: at most two to one endpoint, 64 in all (webhook-attempt-slots.ts).
 * Two per endpoint is what Standard Webhooks receivers are expected to take; 64 bounds the sockets
 * and answer buffers one runner holds, far above what well-behaved receivers need at once.
 */
const ATTEMPTS_IN_FLIGHT = 64;
const ATTEMPTS_IN_FLIGHT_PER_ENDPOINT = 2;
/** A job may run a little before its delivery's `nextAttemptAt` (clocks of two hosts). */
const EARLY_RUN_TOLERANCE_MS = 1_000;

const addReports = (reports: readonly WebhookJobReport[]): WebhookJobReport =>
  reports.reduce(
    (sum, report) => ({
      attempted: sum.attempted + report.attempted,
      succeeded: sum.succeeded + report.succeeded,
      retrying: sum.retrying + report.retrying,
      failed: sum.failed + report.failed,
    }),
    NOTHING_DONE,
  );

/** Redeliveries retried when an attempt was recorded in between. */
const REDELIVERY_ATTEMPTS = 3;
const attemptOutcomeOf = (answer: WebhookAnswer, now: Date): WebhookAttemptOutcome =>
  answer.type === 'answered'
    ? {
        type: 'answered',
        statusCode: answer.statusCode,
        retryAfterMs: parseRetryAfter(answer.retryAfter, now),
      }
    : answer;

/** 410 Gone: the receiver says the endpoint is no more; the endpoint is disabled (Standard Webhooks). */
const GONE = 410;
const endpointResultOf = (
  answer: WebhookAnswer,
  delivery: StoredWebhookDelivery,
): WebhookEndpointAttemptResult => {
  if (delivery.status === 'succeeded') return 'succeeded';
  return answer.type === 'answered' && answer.statusCode === GONE ? 'gone' : 'failed';
};

/**
 * Delivery of events to endpoints: the jobs a runner hands over (create the deliveries of new
 * events and attempt them; attempt one again), a manager's view of them, and redelivery.
 */
export const createWebhookDeliveryOperations = (ctx: KitContext): WebhookDeliveryOperations => {
  const { ports, options } = ctx;
  /** The unit of work of this service, whose transactions complete no idempotency claim. */
  const inTransaction = <T>(work: (tx: TransactionalStores) => ResultAsync<T, DomainError>) =>
    ports.unitOfWork.transaction(work).mapErr(lockLostAsInProgress);
  const now = () => ports.clock.now();
  /**
   * An endpoint is slow when an attempt took half the attempt timeout or more, or timed out: then
   * its attempts beyond its two in flight are handed back to the job engine for later (a job
   * waiting on it would hold a runner's slot that other endpoints need).
   */
  const slowAfterMs = options.webhookAttemptTimeoutMs / 2;
  /**
   * An attempt waits for a slot at most one attempt timeout, then is handed back for later: a job
   * then ends within about two attempt timeouts (20 s by default) whatever waits for its endpoint,
   * well before the job engine takes it for abandoned (PostgreSQL: 60 s by default).
   */
  const slots = createWebhookAttemptSlots({
    total: ATTEMPTS_IN_FLIGHT,
    perEndpoint: ATTEMPTS_IN_FLIGHT_PER_ENDPOINT,
    maxWaitMs: options.webhookAttemptTimeoutMs,
    now: () => now().getTime(),
  });
  /**
   * How long a claimed attempt is held by its worker (`claimAttempt`): its send (at most the attempt
   * timeout) and its record, with room to spare; a worker that died before recording holds it no
   * longer than this.
   */
  const claimMs = 2 * options.webhookAttemptTimeoutMs + 5_000;

  const send = (endpoint: StoredWebhookEndpoint, logged: LoggedEvent): ResultAsync<WebhookAnswer, never> => {
    if (ports.webhookTransport === undefined) {
      return okAsync({ type: 'unreachable', reason: 'connection failed' });
    }
    const at = now();
    const body = JSON.stringify(logged.event);
    const secrets = signingSecretsAt(endpoint, at);
    return ports.webhookTransport
      .send({
        url: endpoint.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'onboarding-kit-webhooks/1',
          ...signWebhook({ messageId: logged.event.id, timestamp: at, body, secrets }),
        },
        body,
        timeoutMs: options.webhookAttemptTimeoutMs,
        allowPrivateNetworks: allowsPrivateNetwork(options.webhookAllowPrivateNetworks, endpoint.url),
      })
      .orElse(() => okAsync<WebhookAnswer, never>({ type: 'unreachable', reason: 'connection failed' }));
  };

  /**
   * Records an attempt: with the job of its retry in one transaction when there is one, as a single
   * compare-and-set statement otherwise (a success or a final failure needs no transaction).
   */
  const recordAttempt = (next: StoredWebhookDelivery, expectedAttempts: number) => {
    const retryAt = next.status === 'pending' ? next.nextAttemptAt : null;
    return retryAt !== null
      ? inTransaction((tx) =>
          tx.webhookDeliveries
            .update(next, expectedAttempts)
            .andThen((recorded) =>
              recorded
                ? tx.webhookJobs.enqueueAttempt(next.id, new Date(retryAt)).map(() => true)
                : okAsync(false),
            ),
        )
      : ports.webhookDeliveries.update(next, expectedAttempts);
  };

  /** Records what the endpoint answered to an attempt of `delivery`. */
  const recordAnswer = (
    delivery: StoredWebhookDelivery,
    answer: WebhookAnswer,
  ): ResultAsync<WebhookJobReport, DomainError> => {
    const answeredAt = now();
    const next = deliveryAfterAttempt(
      delivery,
      attemptOutcomeOf(answer, answeredAt),
      answeredAt,
      Math.random(),
    );
    return recordAttempt(next, delivery.attempts)
      .andThen((recorded) =>
        // Only the attempt recorded counts towards the endpoint's health (a duplicate record lost).
        recorded
          ? ports.webhookEndpoints
              .noteAttemptResult(
                delivery.managerId,
                delivery.endpointId,
                endpointResultOf(answer, next),
                answeredAt,
                DISABLE_AFTER_FAILING_MS,
              )
              .map(() => recorded)
          : okAsync(recorded),
      )
      .map(
        (recorded): WebhookJobReport =>
          recorded
            ? {
                attempted: 1,
                succeeded: next.status === 'succeeded' ? 1 : 0,
                retrying: next.status === 'pending' ? 1 : 0,
                failed: next.status === 'failed' ? 1 : 0,
              }
            : // Another worker recorded an attempt of it meanwhile: its record stands.
              { ...NOTHING_DONE, attempted: 1 },
      );
  };

  /**
   * A due delivery of a disabled endpoint: failed without a request (`endpoint disabled`), not an
   * attempt; its manager redelivers it after enabling the endpoint again.
   */
  const failForDisabledEndpoint = (
    delivery: StoredWebhookDelivery,
  ): ResultAsync<WebhookJobReport, DomainError> =>
    ports.webhookDeliveries
      .update(
        { ...delivery, status: 'failed', nextAttemptAt: null, lastError: 'endpoint disabled' },
        delivery.attempts,
      )
      .map((recorded) => (recorded ? { ...NOTHING_DONE, failed: 1 } : NOTHING_DONE));

  /**
   * Deliveries handed back (their endpoints slow and busy, no slot came free in time, the runner
   * stops, or their attempt is claimed by another worker): attempted again by one job due once the
   * attempts in flight have ended (between one and two attempt timeouts from now, jittered; a claim
   * still held then puts it off again). Not attempts: nothing of the deliveries changes.
   */
  const deferAttempts = (deliveries: readonly PutOffDelivery[]): ResultAsync<void, DomainError> => {
    if (deliveries.length === 0) return okAsync(undefined);
    const timeout = options.webhookAttemptTimeoutMs;
    const runAt = new Date(now().getTime() + timeout + Math.round(timeout * Math.random()));
    return inTransaction((tx) => tx.webhookJobs.enqueueAttempts(deliveries, runAt));
  };

  /**
   * In its slot: claims the attempt (so that a second worker holding the same job does not send it
   * too), then sends it.
   */
  const claimAndSend = async (
    delivery: StoredWebhookDelivery,
    endpoint: StoredWebhookEndpoint,
    logged: LoggedEvent,
  ): Promise<Result<WebhookAnswer | null, DomainError>> => {
    const at = now();
    const claimed = await ports.webhookDeliveries.claimAttempt(
      delivery.id,
      delivery.attempts,
      at,
      new Date(at.getTime() + claimMs),
    );
    if (claimed.isErr()) return err(claimed.error);
    if (!claimed.value) return ok(null);
    return ok(
      await send(endpoint, logged).match(
        (answer) => answer,
        (never) => never,
      ),
    );
  };

  /**
   * One attempt of a pending delivery of `logged` to `endpoint` and its record; null when it was
   * handed back (busy, or claimed by another worker).
   */
  const attemptWith = (
    delivery: StoredWebhookDelivery,
    endpoint: StoredWebhookEndpoint,
    logged: LoggedEvent,
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport | null, DomainError> =>
    endpoint.disabledAt !== null
      ? failForDisabledEndpoint(delivery)
      : ResultAsync.fromSafePromise(
          slots.run(
            endpoint.id,
            () => claimAndSend(delivery, endpoint, logged),
            (sent, elapsedMs) =>
              sent.isOk() &&
              sent.value !== null &&
              (elapsedMs >= slowAfterMs ||
                (sent.value.type === 'unreachable' && sent.value.reason === 'timeout')),
            signal === undefined ? {} : { signal },
          ),
        ).andThen((slot): ResultAsync<WebhookJobReport | null, DomainError> => {
          if (slot.type === 'busy') return okAsync(null);
          if (slot.outcome.isErr()) return errAsync(slot.outcome.error);
          const answer = slot.outcome.value;
          return answer === null ? okAsync(null) : recordAnswer(delivery, answer);
        });

  /** One attempt of a pending delivery, its endpoint and event read first; null when it was handed back. */
  const attempt = (
    delivery: StoredWebhookDelivery,
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport | null, DomainError> =>
    slots.isBusy(delivery.endpointId) || signal?.aborted === true
      ? okAsync(null)
      : ResultAsync.combine([
          ports.webhookEndpoints.find(delivery.managerId, delivery.endpointId),
          ports.events.findByIds([delivery.eventId]),
        ] as const).andThen(([endpoint, [logged]]) =>
          // The endpoint was removed (its deliveries with it) or the event is not there: nothing to send.
          endpoint === null || logged === undefined
            ? okAsync(NOTHING_DONE)
            : attemptWith(delivery, endpoint, logged, signal),
        );

  /**
   * Attempts deliveries all at once (the attempt slots bound them, per endpoint and in all), and
   * puts those handed back in one job for later.
   */
  const attemptAll = (
    deliveries: readonly StoredWebhookDelivery[],
    attemptOne: (delivery: StoredWebhookDelivery) => ResultAsync<WebhookJobReport | null, DomainError>,
  ): ResultAsync<WebhookJobReport, DomainError> =>
    ResultAsync.combine(deliveries.map(attemptOne)).andThen((reports) =>
      deferAttempts(
        deliveries
          .filter((_, i) => reports[i] === null)
          .map(({ id, endpointId }) => ({ deliveryId: id, endpointId })),
      ).map(() => addReports(reports.filter((report): report is WebhookJobReport => report !== null))),
    );

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
                return endpoint === undefined || logged === undefined || slots.isBusy(endpoint.id)
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
          const busy = job.deliveries.filter(({ endpointId }) => slots.isBusy(endpointId));
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
