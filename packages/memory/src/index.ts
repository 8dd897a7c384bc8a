/**
 * The public API of @onboarding-kit/memory: every port of the kit in memory (host unit tests, the
 * demo). The list is pinned by `docs/api/memory.exports.txt`.
 */

export { createMemoryAdapters, type MemoryAdapters, type MemoryAdaptersOptions } from './memory-adapters.js';
export { createMemoryKit, type MemoryKit } from './memory-kit.js';
export { screeningRetryDelayMs } from './memory-screening-job-queue.js';
export { nodeTextHashing } from './node-text-hashing.js';
