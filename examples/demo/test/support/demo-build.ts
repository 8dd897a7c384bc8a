import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Marks the plugin's own resolve calls, which esbuild hands back to the plugin. */
const resolvingInPlace = Symbol('resolving in place');

/**
 * The kit's own sources (examples/demo/src and packages/*\/src, through tsconfig.json's paths, as
 * tsx reads them) go into the file; every package from node_modules stays out, imported from the
 * exact file its importer resolves it to, so the graph of modules is the one `pnpm demo` loads.
 * Each source module keeps its own import.meta.url: the postgres migrations and the console's
 * assets are read beside their sources.
 */
const sourcesInPlace: Plugin = {
  name: 'sources-in-place',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === resolvingInPlace || args.path.startsWith('@onboarding-kit/')) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: resolvingInPlace,
      });
      return resolved.errors.length > 0
        ? { errors: resolved.errors }
        : { path: resolved.path, external: true };
    });
    builder.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

/** What the run builds: the demo, and the harness test's fixture process. */
export type DemoBuild = { readonly demo: string; readonly harnessFixture: string };

/**
 * The demo's main.ts, and the fixture harness-leaves-nothing-running.test.ts runs in processes of
 * its own, each compiled with the kit's sources into one JavaScript file under `directory`:
 * `node --import tsx` transpiled and resolved about 200 source files at every start (about 4 CPU s
 * each, 1.8 s from the built file). Built from the sources at the start of every run, so never
 * stale. Returns the files' paths.
 */
export const buildDemo = async (directory: string): Promise<DemoBuild> => {
  await build({
    entryPoints: {
      demo: join(repositoryRoot, 'examples/demo/src/main.ts'),
      'servers-then-failure': join(repositoryRoot, 'examples/demo/test/processes/servers-then-failure.ts'),
    },
    tsconfig: join(repositoryRoot, 'tsconfig.json'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: directory,
    outExtension: { '.js': '.mjs' },
    sourcemap: true,
    plugins: [sourcesInPlace],
    logLevel: 'error',
  });
  return {
    demo: join(directory, 'demo.mjs'),
    harnessFixture: join(directory, 'servers-then-failure.mjs'),
  };
};
