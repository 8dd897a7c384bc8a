import { fileURLToPath } from 'node:url';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Tests run against the TypeScript sources of every workspace package, never a stale build.
// Each entry point by its exact name (a bare package name would also match its subpaths).
const entries: Record<string, string> = {
  core: 'core/src/index.ts',
  'core/adapter': 'core/src/adapter.ts',
  'core/schemas': 'core/src/schemas/index.ts',
  'contract-tests': 'contract-tests/src/index.ts',
  memory: 'memory/src/index.ts',
  postgres: 'postgres/src/index.ts',
  s3: 's3/src/index.ts',
  express: 'express/src/index.ts',
  'webhook-transport': 'webhook-transport/src/index.ts',
  'screening-list': 'screening-list/src/index.ts',
  'review-console': 'review-console/src/index.ts',
};
export const sourceAliases = Object.entries(entries).map(([name, file]) => ({
  find: new RegExp(`^@onboarding-kit/${name}$`),
  replacement: fileURLToPath(new URL(`./packages/${file}`, import.meta.url)),
}));

/**
 * The project config every package's vitest.config.ts starts from. The test files of a project share
 * one module graph per worker (`isolate: false`): importing the kit's sources once per worker instead
 * of once per file takes two thirds of the CPU off the projects that start no server. A project whose
 * files replace a module for their own graph (`vi.mock`) passes `isolate: true`.
 */
export const packageProject = (name: string, test: UserWorkspaceConfig['test'] = {}) =>
  defineProject({
    resolve: { alias: sourceAliases },
    test: {
      name,
      include: ['test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 120_000,
      isolate: false,
      ...test,
    },
  });
