/**
 * The public API of @onboarding-kit/webhook-transport: webhook delivery over Node's HTTP client.
 * The list is pinned by `docs/api/webhook-transport.exports.txt`.
 */
export { createNodeWebhookTransport, type NodeWebhookTransportOptions } from './node-webhook-transport.js';
