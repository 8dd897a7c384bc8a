import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of every workspace package, never a stale build.
const packages = ['core', 'contract-tests', 'memory', 'postgres', 's3', 'express'];
const alias = Object.fromEntries(
  packages.map((name) => [
    `@onboarding-kit/${name}`,
    fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
  ]),
);

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      ...packages
        .filter((name) => name !== 'contract-tests')
        .map((name) => ({
          resolve: { alias },
          test: {
            name,
            root: `./packages/${name}`,
            include: ['test/**/*.test.ts'],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        })),
      {
        resolve: { alias },
        test: {
          name: 'demo',
          root: './examples/demo',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
