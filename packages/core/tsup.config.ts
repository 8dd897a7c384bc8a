import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// Three entries (the host's, the adapter authors', the wire schemas) share one copy of the code:
// splitting keeps a zod schema registered once however many entries a process imports.
export default defineConfig(
  packageBuild({
    entry: { index: 'src/index.ts', adapter: 'src/adapter.ts', schemas: 'src/schemas/index.ts' },
    splitting: true,
  }),
);
