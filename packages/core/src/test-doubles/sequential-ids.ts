import type { IdGenerator } from '../ports/id-generator.js';

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0').slice(-digits);

/**
 * Deterministic, valid UUID v4 strings (version nibble 4, variant 8): `<seed>-0000-4000-8000-<n>`,
 * n counting from 1. Two generators with different seeds never collide.
 */
export const createSequentialIds = (seed = 0): IdGenerator => {
  let counter = 0;
  return {
    uuid: () => {
      counter += 1;
      return `${hex(seed, 8)}-0000-4000-8000-${hex(counter, 12)}`;
    },
  };
};
