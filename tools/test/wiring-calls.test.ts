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

test('docs/architecture.md gives the counts the tool counts, in the README and step by step', () => {
  const architecture = read('docs/architecture.md').replace(/\s+/g, ' ');
  const oneCall = countWiringCalls(read('README.md')).kitCalls;
  const stepByStep = countWiringCalls(
    read('packages/postgres/README.md'),
    '<!-- wiring: postgres + s3, step by step',
  ).kitCalls;
  const packagesOf = (calls: typeof oneCall) => new Set(calls.map(({ from }) => from)).size;
  expect(architecture).toContain(
    `**${oneCall.length} calls of the kit from ${packagesOf(oneCall)} packages**`,
  );
  expect(architecture).toContain(`**${stepByStep.length} calls from ${packagesOf(stepByStep)} packages**`);
  // Each call the map names, by name, in the tool's order.
  const named = (calls: typeof oneCall) => `(${calls.map(({ name }) => `\`${name}\``).join(', ')}`;
  expect(architecture).toContain(named(oneCall));
  expect(architecture).toContain(named(stepByStep));
  // The READMEs say it in words.
  const inWords = ['zero', 'one', 'two', 'three', 'four', 'five'][oneCall.length] ?? '';
  for (const doc of ['README.md', 'packages/postgres/README.md'])
    expect(read(doc).replace(/\s+/g, ' ').toLowerCase(), doc).toContain(`${inWords} calls of the kit`);
});
