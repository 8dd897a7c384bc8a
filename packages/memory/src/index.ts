/**
 * The public API of @onboarding-kit/memory: every port of the kit in memory (host unit tests, the
 * demo). The list is pinned by `docs/api/memory.exports.txt`.
 */

import type { MemoryAdapters } from './memory-adapters.js';
import type { MemoryKit } from './memory-kit.js';

export { createMemoryAdapters, type MemoryAdapters, type MemoryAdaptersOptions } from './memory-adapters.js';
export { createMemoryKit, type MemoryKit } from './memory-kit.js';
export { type ScreeningRoundOptions, screeningRetryDelayMs } from './memory-screening-job-queue.js';
export type { WebhookRoundOptions } from './memory-webhook-job-queue.js';
export { nodeTextHashing } from './node-text-hashing.js';

// The names a host's tests type their helpers with, each what the values above are.
export type MemoryTestingHelpers = MemoryAdapters['testing'];
export type MemoryKitTesting = MemoryKit['testing'];
export type MemorySignedLinks = MemoryAdapters['signedLinks'];
export type WebhookDeliveryRound = Awaited<ReturnType<MemoryTestingHelpers['deliverDueWebhooks']>>;
export type ScreeningRound = Awaited<ReturnType<MemoryTestingHelpers['screenDueClients']>>;
