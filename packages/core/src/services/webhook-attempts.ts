import { okAsync, ResultAsync } from 'neverthrow';
import {
  deliveryAfterAttempt,
  parseRetryAfter,
  type StoredWebhookDelivery,
  type WebhookAttemptOutcome,
} from '../domain/webhook-delivery.js';
import {
  DISABLE_AFTER_FAILING_MS,
  type StoredWebhookEndpoint,
  signingSecretsAt,
  type WebhookEndpointAttemptResult,
} from '../domain/webhook-endpoint.js';
import { type DomainError, lockLostAsInProgress } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { LoggedEvent } from '../ports/event-log.js';
import type { TransactionalStores } from '../ports/unit-of-work.js';
import type { PutOffDelivery } from '../ports/webhook-job-queue.js';
import type { WebhookAnswer } from '../ports/webhook-transport.js';
import { allowsPrivateNetwork } from '../validation/webhook-endpoint-url.js';
import { signWebhook } from '../webhooks/webhook-signature.js';
import { createWebhookAttemptSlots } from './webhook-attempt-slots.js';

/** What one webhook job did: how many attempts it made and how they ended. */
export type WebhookJobReport = {
  readonly attempted: number;
  readonly succeeded: number;
  readonly retrying: number;
  readonly failed: number;
};

/** The report of a job that attempted nothing. */
export const NOTHING_DONE: WebhookJobReport = { attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
/**
 * Attempts one process has in flight: at most two to one endpoint, 64 in all (webhook-attempt-slots.ts).
 * Two per endpoint is what Standard Webhooks receivers are expected to take; 64 bounds the sockets
 * and answer buffers one runner holds, far above what well-behaved receivers need at once.
 */
const ATTEMPTS_IN_FLIGHT = 64;
const ATTEMPTS_IN_FLIGHT_PER_ENDPOINT = 2;

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

/** What the jobs of one kit use to attempt deliveries (`createWebhookAttempts`). */
export type WebhookAttempts = {
  /** One attempt of a pending delivery, its endpoint and event read first; null when handed back. */
  attempt(
    delivery: StoredWebhookDelivery,
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport | null, DomainError>;
  /** One attempt with the endpoint and event already read; null when handed back. */
  attemptWith(
    delivery: StoredWebhookDelivery,
    endpoint: StoredWebhookEndpoint,
    logged: LoggedEvent,
    signal: AbortSignal | undefined,
  ): ResultAsync<WebhookJobReport | null, DomainError>;
  /** Attempts all at once (the slots bound them) and puts those handed back in one later job. */
  attemptAll(
    deliveries: readonly StoredWebhookDelivery[],
    attemptOne: (delivery: StoredWebhookDelivery) => ResultAsync<WebhookJobReport | null, DomainError>,
  ): ResultAsync<WebhookJobReport, DomainError>;
  /** Hands deliveries back: one job attempts them once the attempts in flight have ended. */
  deferAttempts(deliveries: readonly PutOffDelivery[]): ResultAsync<void, DomainError>;
  /** Whether the endpoint is slow and has its attempts in flight (its deliveries wait). */
  isBusy(endpointId: string): boolean;
};

/**
 * One attempt of a delivery, from its slot to its record: a bounded number in flight per endpoint
 * and in all (webhook-attempt-slots.ts), a claim so that two workers holding the same job send it
 * once, the signed request, the answer recorded with the retry it schedules, and the endpoint's
 * health (410 Gone or sustained failure disables it).
 */
export const createWebhookAttempts = (ctx: KitContext): WebhookAttempts => {
  const { ports, options } = ctx;
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
   * How long a claimed attempt is held by its worker (`claimAttempt`): its wait for a slot (at most
   * the attempt timeout), its send (at most the attempt timeout) and its record, with room to spare;
   * a worker that died before recording holds it no longer than this.
   */
  const claimMs = 3 * options.webhookAttemptTimeoutMs + 5_000;

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
    endpoint: StoredWebhookEndpoint,
    answer: WebhookAnswer,
  ): ResultAsync<WebhookJobReport, DomainError> => {
    const answeredAt = now();
    const next = deliveryAfterAttempt(
      delivery,
      attemptOutcomeOf(answer, answeredAt),
      answeredAt,
      Math.random(),
    );
    const result = endpointResultOf(answer, next);
    return recordAttempt(next, delivery.attempts)
      .andThen((recorded) =>
        // Only the attempt recorded counts towards the endpoint's health (a duplicate record lost).
        // A success to an endpoint that was not failing when this job read it has nothing to note:
        // a failure noted since then is cleared by the next success of a job that reads it after,
        // seconds later, far inside the days a failing streak takes to disable an endpoint.
        recorded && (result !== 'succeeded' || endpoint.failingSince !== null)
          ? ports.webhookEndpoints
              .noteAttemptResult(
                delivery.managerId,
                delivery.endpointId,
                result,
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
   * Claims the attempt (so that a second worker holding the same job does not send it too) before
   * it waits for its slot: the slot then holds only the request, so the endpoint's two slots are
   * not also held by a round trip to the store each (what the slots bound is what the receiver
   * sees). The claim ends at `until`, or when the attempt is recorded or handed back.
   */
  const claim = (delivery: StoredWebhookDelivery) => {
    const at = now();
    const until = new Date(at.getTime() + claimMs);
    return ports.webhookDeliveries
      .claimAttempt(delivery.id, delivery.attempts, at, until)
      .map((claimed) => (claimed ? until : null));
  };
  /**
   * Hands a claim back (the attempt did not start: no slot came free): the delivery is claimed
   * again until now, which only the claim ending at `until` allows, so the job that attempts it
   * later is not put off by this worker's claim. Nothing was sent, so nothing is recorded.
   */
  const releaseClaim = (delivery: StoredWebhookDelivery, until: Date) =>
    ports.webhookDeliveries.claimAttempt(delivery.id, delivery.attempts, until, now()).map(() => null);

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
      : claim(delivery).andThen(
          (until): ResultAsync<WebhookJobReport | null, DomainError> =>
            // Claimed by another worker: handed back, the attempt is that worker's.
            until === null
              ? okAsync(null)
              : ResultAsync.fromSafePromise(
                  slots.run(
                    endpoint.id,
                    () =>
                      send(endpoint, logged).match(
                        (answer) => answer,
                        (never) => never,
                      ),
                    (answer, elapsedMs) =>
                      elapsedMs >= slowAfterMs ||
                      (answer.type === 'unreachable' && answer.reason === 'timeout'),
                    signal === undefined ? {} : { signal },
                  ),
                ).andThen(
                  (slot): ResultAsync<WebhookJobReport | null, DomainError> =>
                    slot.type === 'busy'
                      ? releaseClaim(delivery, until)
                      : recordAnswer(delivery, endpoint, slot.outcome),
                ),
        );

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

  return {
    attempt,
    attemptWith,
    attemptAll,
    deferAttempts,
    isBusy: (endpointId) => slots.isBusy(endpointId),
  };
};
