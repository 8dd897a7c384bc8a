import { hash } from 'node:crypto';
import type { TextHashing } from '@onboarding-kit/core/adapter';

/**
 * Node's native SHA-256 (the one-shot `crypto.hash`, Node ≥ 20.12): the same digests as core's
 * portable one, several times faster (about 0.3 µs against 0.7 µs for `createHash` on an API key).
 */
export const nodeTextHashing: TextHashing = {
  sha256Hex: (text) => hash('sha256', text, 'hex'),
};
