import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWithSourcesInPlace } from '../../../test-support/sources-in-place-build.js';

/** The scripts of test/processes that tests start as processes of their own (child-process-runner.ts). */
export const processScripts = ['claim-and-hang', 'claim-same-key', 'monitor-and-crash'] as const;
export type ProcessScript = (typeof processScripts)[number];

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each script of test/processes, compiled from this run's sources into one file. */
    postgresProcessBuilds: Record<ProcessScript, string>;
  }
}

/**
 * test/processes built once for the run (test-support/sources-in-place-build.ts), removed at its
 * end: started through `node --import tsx`, each of the four starts of a run transpiled and
 * resolved the adapters' sources anew.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(join(tmpdir(), 'onboarding-kit-postgres-processes-'));
  const remove = () => rm(directory, { recursive: true, force: true });
  try {
    const built = await buildWithSourcesInPlace(
      Object.fromEntries(
        processScripts.map((script) => [script, `packages/postgres/test/processes/${script}.ts`]),
      ) as Record<ProcessScript, string>,
      directory,
    );
    project.provide('postgresProcessBuilds', built);
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}
