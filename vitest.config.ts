import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'packages/review-console/vitest.browser.config.ts',
      'examples/*/vitest.config.ts',
      'tools/vitest.config.ts',
    ],
    // One test file per core. Vitest's default (cores - 1) ran the whole suite in a single worker on
    // a 2-core machine, one file after the other, though most files wait on their servers, child
    // processes and receivers far more than they compute.
    maxWorkers: availableParallelism(),
    // The JSON report lets CI print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-results.json' }]],
  },
});
