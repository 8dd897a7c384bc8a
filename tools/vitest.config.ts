import { defineProject } from 'vitest/config';

/**
 * Checks over the whole repository (the public API reports), not tied to one package. Its files share
 * one module graph per worker (`isolate: false`, as the packages' projects do): TypeScript's compiler
 * and API Extractor are imported once per worker instead of once per file; no file replaces a module.
 */
export default defineProject({
  test: { name: 'repository', include: ['test/**/*.test.ts'], testTimeout: 60_000, isolate: false },
});
