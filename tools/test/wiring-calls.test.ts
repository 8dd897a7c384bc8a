import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { countWiringCalls } from '../count-wiring-calls.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

test("the README's PostgreSQL + S3 wiring makes at most 5 calls of the kit, each exported by its package", () => {
  const { kitCalls, hostCalls } = countWiringCalls(read('README.md'));
  expect(kitCalls.length).toBeGreaterThan(0);
  expect(kitCalls.length).toBeLessThanOrEqual(5);
  for (const { name, from } of kitCalls) {
    const index = read(`packages/${from.replace('@onboarding-kit/', '')}/src/index.ts`);
    expect(index, `${name} of ${from}`).toMatch(new RegExp(`\\b${name}\\b`));
  }
  // The host's own calls are printed, not counted: a kit call hidden among them would be a miscount.
  expect(hostCalls).toEqual(['new pg.Pool', 'new S3Client', 'express']);
});
