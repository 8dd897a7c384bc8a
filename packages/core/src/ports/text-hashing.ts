/**
 * SHA-256 of UTF-8 text, as lower-case hex: API key digests and request fingerprints. Core's own
 * implementation is portable JavaScript; a host may plug the platform's native hash (about 3×
 * faster on Node: `createHash('sha256').update(text).digest('hex')`), as the memory adapters do.
 */
export interface TextHashing {
  sha256Hex(text: string): string;
}
