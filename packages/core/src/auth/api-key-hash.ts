import { portableTextHashing, type TextHashing } from '../ports/text-hashing.js';

/** API keys are stored and looked up only as the hex SHA-256 digest of the raw key. */
export const hashApiKey = (apiKey: string, hashing: TextHashing = portableTextHashing): string =>
  hashing.sha256Hex(apiKey);

/** Compares two equal-length hex digests without an early exit, so timing tells nothing. */
export const digestsEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
};
