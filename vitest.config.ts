import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'packages/review-console/vitest.browser.config.ts',
      'examples/*/vitest.config.ts',
      'tools/vitest.config.ts',
    ],
    // The JSON report lets CI print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-results.json' }]],
  },
});
