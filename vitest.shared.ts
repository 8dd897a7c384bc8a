import { fileURLToPath } from 'node:url';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Tests run against the TypeScript sources of every workspace package, never a stale build.
const packages = [
  'core',
  'contract-tests',
  'memory',
  'postgres',
  's3',
  'express',
  'webhook-transport',
  'screening-list',
];
export const sourceAliases = Object.fromEntries(
  packages.map((name) => [
    `@onboarding-kit/${name}`,
    fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
  ]),
);

/** The project config every package's vitest.config.ts starts from. */
export const packageProject = (name: string, test: UserWorkspaceConfig['test'] = {}) =>
  defineProject({
    resolve: { alias: sourceAliases },
    test: {
      name,
      include: ['test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 120_000,
      ...test,
    },
  });
