import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDemo } from './support/demo-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo, compiled from this run's sources into one file (support/demo-build.ts). */
    demoBuild: string;
    /** harness-leaves-nothing-running's fixture process, compiled likewise. */
    harnessFixtureBuild: string;
  }
}

/**
 * The demo built once for the run, for the tests that start demo processes, with the harness test's
 * fixture; removed at the run's end. A
 * setup of its own, apart from the servers' (global-setup.ts, which harness-leaves-nothing-running
 * also runs in its own processes, with no use for a build).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(join(tmpdir(), 'onboarding-kit-demo-'));
  const remove = () => rm(directory, { recursive: true, force: true });
  try {
    const built = await buildDemo(directory);
    project.provide('demoBuild', built.demo);
    project.provide('harnessFixtureBuild', built.harnessFixture);
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}
