import { defineProject } from 'vitest/config';

/** Checks over the whole repository (the public API reports), not tied to one package. */
export default defineProject({
  test: { name: 'repository', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
