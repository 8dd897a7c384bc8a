import { buildWithSourcesInPlace } from '../../../../test-support/sources-in-place-build.js';

/** What the run builds: the demo, and the harness test's fixture process. */
export type DemoBuild = { readonly demo: string; readonly harnessFixture: string };

/**
 * The demo's main.ts, and the fixture harness-leaves-nothing-running.test.ts runs in processes of
 * its own, each compiled with the kit's sources into one JavaScript file under `directory`
 * (test-support/sources-in-place-build.ts): `node --import tsx` transpiled and resolved about 200
 * source files at every start (about 4 CPU s each, 1.8 s from the built file). Returns the files'
 * paths.
 */
export const buildDemo = async (directory: string): Promise<DemoBuild> => {
  const built = await buildWithSourcesInPlace(
    {
      demo: 'examples/demo/src/main.ts',
      'servers-then-failure': 'examples/demo/test/processes/servers-then-failure.ts',
    },
    directory,
  );
  return { demo: built.demo, harnessFixture: built['servers-then-failure'] };
};
