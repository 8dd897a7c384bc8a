import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of UTF-8 text, as lower-case hex: API key digests and request fingerprints. Core's own
 * implementation is portable JavaScript; a host may plug the platform's native hash (about 3×
 * faster on Node: `createHash('sha256').update(text).digest('hex')`), as the memory adapters do.
 */
export interface TextHashing {
  sha256Hex(text: string): string;
}

export const portableTextHashing: TextHashing = {
  sha256Hex: (text) => bytesToHex(sha256(utf8ToBytes(text))),
};
