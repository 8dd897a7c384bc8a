import { portableTextHashing, type TextHashing } from '../ports/text-hashing.js';

/** API keys are stored and looked up only as the hex SHA-256 digest of the raw key. */
export const hashApiKey = (apiKey: string, hashing: TextHashing = portableTextHashing): string =>
  hashing.sha256Hex(apiKey);
