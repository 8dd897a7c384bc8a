import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestProjectsFirst } from './vitest.sequencer.ts';

export default defineConfig({
  test: {
    projects: [
      'vitest.in-process.config.ts',
      'packages/*/vitest.config.ts',
      'packages/review-console/vitest.browser.config.ts',
      'examples/*/vitest.config.ts',
      'tools/vitest.config.ts',
    ],
    // One test file per core, and one more. Vitest's default (cores - 1) ran the whole suite in a
    // single worker on a 2-core machine, one file after the other, though most files wait on their
    // servers, child processes and receivers far more than they compute; with one file per core the
    // cores still idled through those waits (a whole run used about one core of two). On 2 cores at
    // load 10-16 (other sessions running), the whole suite took 566 s on 3 workers, 764 s on 2, for
    // about the same CPU time (403 and 393 s; the 3-worker run had the tools tests' cut of about 25
    // CPU s, so a third worker costs some CPU, spent in its own imports and servers).
    maxWorkers: availableParallelism() + 1,
    // The browser reviews and the demo's process tests first (vitest.sequencer.ts).
    sequence: { sequencer: LongestProjectsFirst },
    // The JSON report lets CI print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-results.json' }]],
  },
});
