import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `shims`: the CJS build needs import.meta.url to find the shipped migrations/ folder.
export default defineConfig(packageBuild({ shims: true }));
