import type { WebhookService } from '../onboarding-kit.js';
import type { KitContext } from './kit-context.js';
import { createWebhookDeliveryOperations } from './webhook-delivery-service.js';
import { createWebhookEndpointOperations } from './webhook-endpoint-service.js';

/** `kit.webhooks`: a manager's endpoints and the deliveries of its events. */
export const createWebhookService = (ctx: KitContext): WebhookService => ({
  ...createWebhookEndpointOperations(ctx),
  ...createWebhookDeliveryOperations(ctx),
});
