import type { ResultAsync } from 'neverthrow';
import type { IdempotentCommandContext } from '../commands/idempotent-command.js';
import type { DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { WebhookJob } from '../ports/webhook-job-queue.js';
import type { ManagerPrincipal } from '../principal.js';
import type {
  CreatedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryListResponse,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookSecretRotationResponse,
} from '../schemas/webhook-endpoints.js';
import { createWebhookDeliveryOperations } from './webhook-delivery-operations.js';
import { createWebhookEndpointOperations } from './webhook-endpoint-operations.js';

/** What one webhook job did: how many attempts it made and how they ended. */
export type WebhookJobReport = {
  readonly attempted: number;
  readonly succeeded: number;
  readonly retrying: number;
  readonly failed: number;
};

export type WebhookJobOptions = { readonly signal?: AbortSignal };

/**
 * Webhook endpoints of a manager and the deliveries of its events. Runners (the
 * PostgreSQL job engine, the memory queue) hand each job to `runJob`.
 */
export interface WebhookService {
  /**
   * Whether the kit was given a `webhookTransport`. Without one it sends nothing: a runner refuses
   * to start on a store that holds endpoints (each attempt would fail), rather than fail them all.
   */
  readonly hasTransport: boolean;
  createEndpoint(
    principal: ManagerPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<CreatedWebhookEndpoint, DomainError>;
  listEndpoints(principal: ManagerPrincipal): ResultAsync<WebhookEndpointListResponse, DomainError>;
  getEndpoint(principal: ManagerPrincipal, endpointId: string): ResultAsync<WebhookEndpoint, DomainError>;
  /** Removes the endpoint and its deliveries; answers the endpoint as it was. */
  deleteEndpoint(
    principal: ManagerPrincipal,
    endpointId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookEndpoint, DomainError>;
  rotateSecret(
    principal: ManagerPrincipal,
    endpointId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookSecretRotationResponse, DomainError>;
  /**
   * Enables an endpoint the kit disabled (410 Gone, or failing for 5 days): new events are delivered
   * to it again. Its deliveries that failed meanwhile stay failed (redeliver them).
   */
  enableEndpoint(
    principal: ManagerPrincipal,
    endpointId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookEndpoint, DomainError>;
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

/** `kit.webhooks`: a manager's endpoints and the deliveries of its events. */
export const createWebhookService = (ctx: KitContext): WebhookService => ({
  hasTransport: ctx.ports.webhookTransport !== undefined,
  ...createWebhookEndpointOperations(ctx),
  ...createWebhookDeliveryOperations(ctx),
});
