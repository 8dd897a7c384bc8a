import type { Options } from 'tsup';

/** The one build shape every publishable package shares: ESM + CJS + d.ts with sourcemaps. */
export const packageBuild = (overrides: Partial<Options> = {}): Options => ({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: false,
  ...overrides,
});
