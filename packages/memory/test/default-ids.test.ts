import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

describe('memory adapters ids', () => {
  it('gives random UUID v4 strings by default', () => {
    const { ids } = createMemoryAdapters();
    const a = ids.uuid();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.uuid()).not.toBe(a);
  });
});
