import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `shims` gives the CJS build a working `import.meta.url`, which locates the shipped migrations.
export default defineConfig(packageBuild({ shims: true }));
