import type { KitContext } from '../kit-context.js';
import {
  createWebhookDeliveryOperations,
  type WebhookDeliveryOperations,
} from './webhook-delivery-operations.js';

export type { WebhookJobOptions, WebhookJobReport } from './webhook-delivery-operations.js';

import {
  createWebhookEndpointOperations,
  type WebhookEndpointOperations,
} from './webhook-endpoint-operations.js';

/**
 * Webhook endpoints of a manager and the deliveries of its events. Runners (the
 * PostgreSQL job engine, the memory queue) hand each job to `runJob`.
 */
export interface WebhookService extends WebhookEndpointOperations, WebhookDeliveryOperations {
  /**
   * Whether the kit was given a `webhookTransport`. Without one it sends nothing: a runner refuses
   * to start on a store that holds endpoints (each attempt would fail), rather than fail them all.
   */
  readonly hasTransport: boolean;
}

/** `kit.webhooks`: a manager's endpoints and the deliveries of its events. */
export const createWebhookService = (ctx: KitContext): WebhookService => ({
  hasTransport: ctx.ports.webhookTransport !== undefined,
  ...createWebhookEndpointOperations(ctx),
  ...createWebhookDeliveryOperations(ctx),
});
