import { portableTextHashing } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { nodeTextHashing } from '../src/index.js';

describe('nodeTextHashing', () => {
  it.each(['', 'demo-manager-a-key', 'Zoé “quoted” ✓ 🚀', '{"a":1,"b":[true,null]}', 'x'.repeat(10_000)])(
    'gives the same SHA-256 hex as core’s portable hashing for %j',
    (text) => {
      expect(nodeTextHashing.sha256Hex(text)).toBe(portableTextHashing.sha256Hex(text));
    },
  );
  it('is the SHA-256 of the UTF-8 bytes', () => {
    expect(nodeTextHashing.sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
