export * from './controllable-clock.js';
export * from './demo-seed.js';
export * from './id-generators.js';
export * from './memory-adapters.js';
export * from './node-text-hashing.js';
