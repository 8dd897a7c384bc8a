import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientStatusTransitions } from '../src/index.js';

const page = readFileSync(new URL('../../../docs/state-machine.md', import.meta.url), 'utf8');
const tableRows = page
  .split('\n')
  .filter((line) => /^\| (\(none\)|[A-Z_]+) \| [A-Z_]+ \|/.test(line))
  .map((line) => line.split('|').map((cell) => cell.trim()));

describe('docs/state-machine.md', () => {
  it('lists exactly the transitions of the exported machine', () => {
    const documented = tableRows
      .map(([, from, trigger, to, actor]) => `${from} ${trigger} ${to} ${actor}`)
      .sort();
    const data = clientStatusTransitions
      .map((t) => `${t.from ?? '(none)'} ${t.trigger} ${t.to} ${t.actor}`)
      .sort();
    expect(documented).toEqual(data);
  });
});
