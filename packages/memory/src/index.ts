/**
 * The public API of @onboarding-kit/memory: every port of the kit in memory (host unit tests, the
 * demo). The list is pinned by `docs/api/memory.exports.txt`.
 */

export {
  createMemoryAdapters,
  type MemoryAdapters,
  type MemoryAdaptersOptions,
  type MemoryTestingHelpers,
} from './memory-adapters.js';
export type { MemorySignedLinks } from './memory-document-storage.js';
export { createMemoryKit, type MemoryKit, type MemoryKitTesting } from './memory-kit.js';
export {
  type ScreeningRound,
  type ScreeningRoundOptions,
  screeningRetryDelayMs,
} from './memory-screening-job-queue.js';
export type { WebhookDeliveryRound, WebhookRoundOptions } from './memory-webhook-job-queue.js';
export { nodeTextHashing } from './node-text-hashing.js';
